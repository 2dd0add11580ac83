//! The HTTP interface: the page's files, and a JSON API over the sessions.
//!
//! | request | what it does |
//! | --- | --- |
//! | `GET /api/engines` | the engines a seat can be given to, and the proposed time per turn |
//! | `POST /api/games` | a new game `{side, players, seats}`, or one read from `{transcript}` |
//! | `GET /api/games/{id}` | the game's state ([`GameView`]) |
//! | `GET /api/games/{id}/events` | server-sent events: the state after every change |
//! | `POST /api/games/{id}/stone` | `{colour, cell}`: a person's next stone of the turn |
//! | `POST /api/games/{id}/takeback` | `{colour}`: takes the last stone of the turn back |
//! | `POST /api/games/{id}/turn` | `{colour, cells?}`: plays the turn (the stones placed so far) |
//! | `POST /api/games/{id}/undo` | takes back the last turn (and the engines' after it) |
//! | `POST /api/games/{id}/goto` | `{turn}`: steps to the position after that many turns |
//! | `POST /api/games/{id}/resume` | lets engines move again after stepping |
//! | `POST /api/games/{id}/seats/{k}` | `{kind: "person"}` or `{kind: "engine", engine, movetime}` |
//! | `POST /api/games/{id}/hint` | `{colour}`: asks the first engine for a turn |
//! | `GET /api/games/{id}/transcript` | the game as a transcript `omega` and `loadgame` read |
//! | `DELETE /api/games/{id}` | ends the game and its engines |
//!
//! Every answer to a change is the new state; every refusal is `{"error": "..."}` with 400
//! (malformed), 404 (no such game), 409 (not allowed now) or 413 (body too large), and the
//! game is left exactly as it was.

use super::cli::{Config, EngineChoice};
use super::session::{engine_seat_kind, Refusal, SeatKind, Session, SessionHandle};
use super::view::{view, GameView};
use crate::game::{Game, MAX_PLAYERS, MIN_PLAYERS};
use axum::extract::rejection::JsonRejection;
use axum::extract::{DefaultBodyLimit, FromRequest, Path, Request, State};
use axum::http::{header, StatusCode};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;
use futures_util::stream::Stream;
use serde::Deserialize;
use std::collections::HashMap;
use std::convert::Infallible;
use std::sync::{Arc, Mutex};

/// The largest request body: a transcript of the largest board is a few kilobytes.
pub const BODY_LIMIT: usize = 64 * 1024;
/// Games kept at once; a new one beyond ends the oldest.
pub const MAX_GAMES: usize = 16;
/// The sides the page offers (the engine accepts 2..13; published play is 4..10).
pub const SIDES: (usize, usize) = (2, 13);

/// The server's state: the engine catalogue and the games.
pub struct App {
    config: Config,
    catalogue: Arc<Vec<EngineChoice>>,
    games: Mutex<Games>,
}

/// The games by id, with the order they were made in (oldest first).
type Games = (HashMap<String, Arc<SessionHandle>>, Vec<String>);

impl App {
    pub fn new(config: Config) -> Arc<App> {
        Arc::new(App {
            catalogue: Arc::new(config.engines.clone()),
            config,
            games: Mutex::new((HashMap::new(), Vec::new())),
        })
    }

    fn game(&self, id: &str) -> Result<Arc<SessionHandle>, ApiError> {
        let games = self.games.lock().unwrap_or_else(|e| e.into_inner());
        games.0.get(id).cloned().ok_or_else(|| ApiError {
            status: StatusCode::NOT_FOUND,
            message: format!("no game '{id}'"),
        })
    }

    /// Ends every game (their engines are told to stop).
    pub fn close_all(&self) {
        let mut games = self.games.lock().unwrap_or_else(|e| e.into_inner());
        for (_, handle) in games.0.drain() {
            handle.lock().stop_all();
        }
        games.1.clear();
    }
}

/// A refused request: its status and a message for people.
#[derive(Debug)]
pub struct ApiError {
    status: StatusCode,
    message: String,
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = serde_json::json!({ "error": self.message });
        (self.status, axum::Json(body)).into_response()
    }
}

impl From<Refusal> for ApiError {
    fn from(r: Refusal) -> ApiError {
        match r {
            Refusal::BadRequest(message) => ApiError {
                status: StatusCode::BAD_REQUEST,
                message,
            },
            Refusal::Conflict(message) => ApiError {
                status: StatusCode::CONFLICT,
                message,
            },
        }
    }
}

fn bad_request(message: impl Into<String>) -> ApiError {
    ApiError::from(Refusal::BadRequest(message.into()))
}

/// A JSON body whose every rejection (not JSON, wrong fields, too large) is an [`ApiError`].
pub struct Body<T>(T);

impl<S: Send + Sync, T: serde::de::DeserializeOwned> FromRequest<S> for Body<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, ApiError> {
        match axum::Json::<T>::from_request(req, state).await {
            Ok(axum::Json(v)) => Ok(Body(v)),
            Err(rejection) => Err(json_error(rejection)),
        }
    }
}

fn json_error(rejection: JsonRejection) -> ApiError {
    let status = rejection.status();
    let message = if status == StatusCode::PAYLOAD_TOO_LARGE {
        format!("the request body is larger than {BODY_LIMIT} bytes")
    } else {
        rejection.body_text()
    };
    ApiError { status, message }
}

type Answer = Result<axum::Json<GameView>, ApiError>;

fn state_of(handle: &SessionHandle) -> axum::Json<GameView> {
    let s = handle.lock();
    axum::Json(view(&s, handle.version()))
}

pub fn router(app: Arc<App>) -> Router {
    Router::new()
        .route(
            "/",
            get(|| async { page(INDEX, "text/html; charset=utf-8") }),
        )
        .route(
            "/app.js",
            get(|| async { page(APP_JS, "text/javascript; charset=utf-8") }),
        )
        .route(
            "/style.css",
            get(|| async { page(STYLE, "text/css; charset=utf-8") }),
        )
        .route("/api/engines", get(engines))
        .route("/api/games", post(new_game))
        .route("/api/games/{id}", get(get_game).delete(delete_game))
        .route("/api/games/{id}/events", get(events))
        .route("/api/games/{id}/stone", post(stone))
        .route("/api/games/{id}/takeback", post(take_back))
        .route("/api/games/{id}/turn", post(turn))
        .route("/api/games/{id}/undo", post(undo))
        .route("/api/games/{id}/goto", post(goto))
        .route("/api/games/{id}/resume", post(resume))
        .route("/api/games/{id}/seats/{seat}", post(seat))
        .route("/api/games/{id}/hint", post(hint))
        .route("/api/games/{id}/transcript", get(transcript))
        .fallback(|| async {
            ApiError {
                status: StatusCode::NOT_FOUND,
                message: "no such page".into(),
            }
        })
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
        .with_state(app)
}

// The page: plain HTML, CSS and JavaScript, built into the binary.
const INDEX: &str = include_str!("../../web/index.html");
const APP_JS: &str = include_str!("../../web/app.js");
const STYLE: &str = include_str!("../../web/style.css");

fn page(body: &'static str, content_type: &'static str) -> Response {
    ([(header::CONTENT_TYPE, content_type)], body).into_response()
}

async fn engines(State(app): State<Arc<App>>) -> Response {
    let names: Vec<&str> = app.catalogue.iter().map(|e| e.name.as_str()).collect();
    axum::Json(serde_json::json!({
        "engines": names,
        "movetime": app.config.movetime,
    }))
    .into_response()
}

/// Who should play a seat, as the page asks.
#[derive(Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase", deny_unknown_fields)]
enum SeatRequest {
    Person,
    Engine {
        engine: String,
        movetime: Option<f64>,
    },
}

impl SeatRequest {
    fn kind(&self, app: &App) -> Result<SeatKind, Refusal> {
        match self {
            SeatRequest::Person => Ok(SeatKind::Person),
            SeatRequest::Engine { engine, movetime } => engine_seat_kind(
                &app.catalogue,
                engine,
                movetime.unwrap_or(app.config.movetime),
            ),
        }
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NewGame {
    side: Option<usize>,
    players: Option<usize>,
    /// One a player; missing seats are people's.
    #[serde(default)]
    seats: Vec<SeatRequest>,
    /// A transcript to start from: it gives the side, the players and the turns.
    transcript: Option<String>,
}

async fn new_game(State(app): State<Arc<App>>, Body(req): Body<NewGame>) -> Response {
    match make_game(&app, req) {
        Ok(handle) => {
            let answer = state_of(&handle);
            handle.kick();
            (StatusCode::CREATED, answer).into_response()
        }
        Err(e) => e.into_response(),
    }
}

fn make_game(app: &App, req: NewGame) -> Result<Arc<SessionHandle>, ApiError> {
    let game = match &req.transcript {
        Some(text) => {
            if req.side.is_some() || req.players.is_some() {
                return Err(bad_request(
                    "a transcript gives the side and the players: send neither",
                ));
            }
            crate::transcript::read(text)
                .map_err(|e| bad_request(format!("the transcript is not a game: {e}")))?
        }
        None => {
            let side = req.side.unwrap_or(5);
            let players = req.players.unwrap_or(2);
            if !(SIDES.0..=SIDES.1).contains(&side) {
                return Err(bad_request(format!(
                    "side {side} is not from {} to {}",
                    SIDES.0, SIDES.1
                )));
            }
            if !(MIN_PLAYERS..=MAX_PLAYERS).contains(&players) {
                return Err(bad_request(format!(
                    "{players} players: a game has {MIN_PLAYERS} to {MAX_PLAYERS}"
                )));
            }
            Game::new(side, players).map_err(|e| bad_request(format!("{e:?}")))?
        }
    };
    if req.seats.len() > game.players() {
        return Err(bad_request(format!(
            "{} seats for {} players",
            req.seats.len(),
            game.players()
        )));
    }
    let mut seats = req
        .seats
        .iter()
        .map(|s| s.kind(app))
        .collect::<Result<Vec<_>, _>>()?;
    seats.resize(game.players(), SeatKind::Person);
    let id = format!("{:016x}", rand::random::<u64>());
    let session = Session::new(
        id.clone(),
        game,
        seats,
        Arc::clone(&app.catalogue),
        app.config.movetime,
        app.config.engine_stderr,
    );
    let handle = SessionHandle::new(session);
    let mut games = app.games.lock().unwrap_or_else(|e| e.into_inner());
    while games.1.len() >= MAX_GAMES {
        let oldest = games.1.remove(0);
        if let Some(old) = games.0.remove(&oldest) {
            old.lock().stop_all();
        }
    }
    games.0.insert(id.clone(), Arc::clone(&handle));
    games.1.push(id);
    Ok(handle)
}

async fn get_game(State(app): State<Arc<App>>, Path(id): Path<String>) -> Answer {
    let handle = app.game(&id)?;
    Ok(state_of(&handle))
}

async fn delete_game(State(app): State<Arc<App>>, Path(id): Path<String>) -> Response {
    let mut games = app.games.lock().unwrap_or_else(|e| e.into_inner());
    match games.0.remove(&id) {
        Some(handle) => {
            games.1.retain(|g| *g != id);
            let mut s = handle.lock();
            s.stop_all();
            handle.changed();
            drop(s);
            StatusCode::NO_CONTENT.into_response()
        }
        None => ApiError {
            status: StatusCode::NOT_FOUND,
            message: format!("no game '{id}'"),
        }
        .into_response(),
    }
}

/// The state now, then after every change, until the game is ended.
async fn events(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
) -> Result<Sse<impl Stream<Item = Result<Event, Infallible>>>, ApiError> {
    let handle = app.game(&id)?;
    let rx = handle.subscribe();
    // A weak reference, so that the stream ends when the game does.
    let weak = Arc::downgrade(&handle);
    drop(handle);
    let stream =
        futures_util::stream::unfold((weak, rx, true), |(weak, mut rx, first)| async move {
            if !first {
                rx.changed().await.ok()?;
            }
            let handle = weak.upgrade()?;
            let data = serde_json::to_string(&*state_of(&handle)).ok()?;
            drop(handle);
            Some((
                Ok(Event::default().event("state").data(data)),
                (weak, rx, false),
            ))
        });
    Ok(Sse::new(stream).keep_alive(KeepAlive::default()))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct StoneRequest {
    colour: String,
    cell: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ColourRequest {
    colour: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TurnRequest {
    colour: String,
    cells: Option<Vec<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct GotoRequest {
    turn: usize,
}

/// Runs a change on game `id` and answers the new state.
fn change(app: &App, id: &str, what: impl FnOnce(&mut Session) -> Result<(), Refusal>) -> Answer {
    let handle = app.game(id)?;
    handle.act(what)?;
    Ok(state_of(&handle))
}

async fn stone(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    Body(r): Body<StoneRequest>,
) -> Answer {
    change(&app, &id, |s| s.place_stone(&r.colour, &r.cell))
}

async fn take_back(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    Body(r): Body<ColourRequest>,
) -> Answer {
    change(&app, &id, |s| s.take_back(&r.colour))
}

async fn turn(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    Body(r): Body<TurnRequest>,
) -> Answer {
    change(&app, &id, |s| s.play_turn(&r.colour, r.cells.as_deref()))
}

async fn undo(State(app): State<Arc<App>>, Path(id): Path<String>) -> Answer {
    change(&app, &id, Session::undo)
}

async fn goto(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    Body(r): Body<GotoRequest>,
) -> Answer {
    change(&app, &id, |s| s.goto(r.turn))
}

async fn resume(State(app): State<Arc<App>>, Path(id): Path<String>) -> Answer {
    change(&app, &id, |s| {
        s.resume();
        Ok(())
    })
}

async fn seat(
    State(app): State<Arc<App>>,
    Path((id, seat)): Path<(String, usize)>,
    Body(r): Body<SeatRequest>,
) -> Answer {
    let kind = r.kind(&app)?;
    change(&app, &id, |s| s.set_seat(seat, kind))
}

async fn hint(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    Body(r): Body<ColourRequest>,
) -> Answer {
    let handle = app.game(&id)?;
    handle.hint(&r.colour)?;
    Ok(state_of(&handle))
}

async fn transcript(State(app): State<Arc<App>>, Path(id): Path<String>) -> Response {
    let handle = match app.game(&id) {
        Ok(h) => h,
        Err(e) => return e.into_response(),
    };
    let s = handle.lock();
    let seats: Vec<String> = (0..s.seats.len())
        .map(|k| {
            let colour = crate::game::Colour::from_index(k);
            format!("{colour} {}", s.engine_name(k).unwrap_or("person"))
        })
        .collect();
    let mut text = format!("# omega-web game {}: {}\n", s.id, seats.join(", "));
    if s.game.is_over() {
        let scores: Vec<String> = s
            .game
            .colours()
            .map(|c| format!("{c} {}", s.game.score(c)))
            .collect();
        let winner = s.game.winner().0;
        text += &format!("# result: {winner} wins, {}\n", scores.join(", "));
    }
    text += &crate::transcript::write(&s.game);
    let disposition = format!("attachment; filename=\"omega-{}.gtp\"", s.id);
    (
        [
            (
                header::CONTENT_TYPE,
                "text/plain; charset=utf-8".to_string(),
            ),
            (header::CONTENT_DISPOSITION, disposition),
        ],
        text,
    )
        .into_response()
}
