//! omega-web's HTTP API, called straight on the router (no network): whole games against
//! the real engine and against fake engines that crash, hang or play illegally, transcripts
//! opened and stepped through, and bad requests that must get a clear error and change nothing.
//! Also the omega-web binary as its own engine (`--engine-process`), the default engine when no
//! omega binary is beside it.

use axum::body::Body;
use axum::http::{Request, StatusCode};
use axum::Router;
use futures_util::StreamExt;
use omega::web::cli::{parse_args, Config};
use omega::web::{router, App};
use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};
use tower::ServiceExt;

const OMEGA: &str = env!("CARGO_BIN_EXE_omega");
const FAKE: &str = env!("CARGO_BIN_EXE_omega-fake-engine");
const WEB: &str = env!("CARGO_BIN_EXE_omega-web");

/// A server offering `engines` (`--engine CMD --name NAME` pairs) with `movetime` a turn.
fn server(engines: &[(&str, &str)], movetime: &str) -> Router {
    let mut args: Vec<String> = vec!["--movetime".into(), movetime.into()];
    for (cmd, name) in engines {
        args.extend(["--engine", cmd, "--name", name].map(String::from));
    }
    let config: Config = parse_args(&args, &[OMEGA.to_string()]).expect("valid flags");
    router(App::new(config))
}

async fn send(app: &Router, method: &str, path: &str, body: Option<String>) -> (StatusCode, Value) {
    let mut req = Request::builder().method(method).uri(path);
    if body.is_some() {
        req = req.header("content-type", "application/json");
    }
    let req = req.body(body.map_or_else(Body::empty, Body::from)).unwrap();
    let res = app.clone().oneshot(req).await.unwrap();
    let status = res.status();
    let bytes = axum::body::to_bytes(res.into_body(), 1 << 24)
        .await
        .unwrap();
    let value = serde_json::from_slice(&bytes)
        .unwrap_or_else(|_| Value::String(String::from_utf8_lossy(&bytes).into()));
    (status, value)
}

async fn get(app: &Router, path: &str) -> Value {
    let (status, v) = send(app, "GET", path, None).await;
    assert_eq!(status, StatusCode::OK, "{path}: {v}");
    v
}

async fn post(app: &Router, path: &str, body: Value) -> Value {
    let (status, v) = send(app, "POST", path, Some(body.to_string())).await;
    assert!(status.is_success(), "{path} {status}: {v}");
    v
}

/// Expects a refusal with `status` whose message contains `words`.
async fn refused(
    app: &Router,
    method: &str,
    path: &str,
    body: Option<String>,
    status: u16,
    words: &str,
) {
    let (got, v) = send(app, method, path, body.clone()).await;
    assert_eq!(got.as_u16(), status, "{method} {path} {body:?}: {v}");
    let message = v["error"]
        .as_str()
        .unwrap_or_else(|| panic!("no error in {v}"));
    assert!(
        message.contains(words),
        "{method} {path}: '{message}' lacks '{words}'"
    );
}

/// Polls the game until `ready` holds, at most 30 s.
async fn wait(app: &Router, id: &str, what: &str, ready: impl Fn(&Value) -> bool) -> Value {
    let start = Instant::now();
    loop {
        let s = get(app, &format!("/api/games/{id}")).await;
        if ready(&s) {
            return s;
        }
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "waited for {what}: {s}"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

fn person_to_move(s: &Value) -> bool {
    s["over"] == true || (s["to_move"] == 0 && s["seats"][0]["thinking"] == false)
}

fn empty_cells(s: &Value) -> Vec<String> {
    let cells = s["cells"].as_array().unwrap();
    cells
        .iter()
        .filter(|c| c["stone"].is_null())
        .map(|c| c["name"].as_str().unwrap().to_string())
        .collect()
}

/// The referee's game as its transcript reads back with the crate's rules.
async fn referee(app: &Router, id: &str) -> omega::game::Game {
    let (status, text) = send(app, "GET", &format!("/api/games/{id}/transcript"), None).await;
    assert_eq!(status, StatusCode::OK);
    omega::transcript::read(text.as_str().unwrap()).expect("a transcript")
}

/// Checks that the state's scores and winner are the referee's.
fn check_result(s: &Value, game: &omega::game::Game) {
    for c in game.colours() {
        assert_eq!(s["colours"][c.index()]["score"], game.score(c).to_string());
    }
    assert_eq!(s["over"], game.is_over());
    if game.is_over() {
        assert_eq!(s["winner"], game.winner().0.index());
    }
}

/// A person (white) plays against the seat-1 engine to the end, by stones or whole turns,
/// taking back the turn pair `undo_at` once.
async fn play_out(app: &Router, id: &str, undo_at: usize) -> Value {
    let mut undone = false;
    loop {
        let s = wait(app, id, "white to move", person_to_move).await;
        if s["over"] == true {
            return s;
        }
        let turn = s["turn"].as_u64().unwrap() as usize;
        if turn == undo_at && !undone {
            undone = true;
            let after = post(app, &format!("/api/games/{id}/undo"), json!(null)).await;
            // The engine's turn and the person's: white is to move again.
            assert_eq!(after["turn"].as_u64().unwrap() as usize, turn - 2);
            assert_eq!(after["to_move"], 0);
            assert_eq!(after["future"], 2);
            continue;
        }
        let empty = empty_cells(&s);
        let cells = [
            &empty[turn % empty.len()],
            &empty[(turn * 3 + 1) % empty.len()],
        ];
        let cells = if cells[0] == cells[1] {
            [&empty[0], &empty[1]]
        } else {
            cells
        };
        if turn.is_multiple_of(4) {
            post(
                app,
                &format!("/api/games/{id}/turn"),
                json!({"colour": "white", "cells": cells}),
            )
            .await;
        } else {
            for cell in cells {
                post(
                    app,
                    &format!("/api/games/{id}/stone"),
                    json!({"colour": "white", "cell": cell}),
                )
                .await;
            }
            post(
                app,
                &format!("/api/games/{id}/turn"),
                json!({"colour": "white"}),
            )
            .await;
        }
    }
}

fn new_game(side: usize, seat1: Value) -> String {
    json!({"side": side, "players": 2, "seats": [{"kind": "person"}, seat1]}).to_string()
}

async fn create(app: &Router, body: String) -> Value {
    let (status, s) = send(app, "POST", "/api/games", Some(body)).await;
    assert_eq!(status, StatusCode::CREATED, "{s}");
    s
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_whole_game_against_the_engine() {
    let engine = format!("{OMEGA} --threads 1 --seed 3");
    let app = server(&[(&engine, "omega")], "0.05");
    let s = create(
        &app,
        new_game(4, json!({"kind": "engine", "engine": "omega"})),
    )
    .await;
    let id = s["id"].as_str().unwrap().to_string();
    assert_eq!(s["seats"][1]["movetime"], 0.05);

    // A hint for the person: two empty cells, the engine's choice.
    let s = wait(&app, &id, "white to move", person_to_move).await;
    post(
        &app,
        &format!("/api/games/{id}/hint"),
        json!({"colour": "white"}),
    )
    .await;
    let s2 = wait(&app, &id, "a hint", |s| !s["hint"].is_null()).await;
    let hint: Vec<String> = serde_json::from_value(s2["hint"]["cells"].clone()).unwrap();
    assert_eq!(hint.len(), 2);
    assert!(hint.iter().all(|c| empty_cells(&s).contains(c)), "{hint:?}");

    let end = play_out(&app, &id, 6).await;
    let game = referee(&app, &id).await;
    assert_eq!(game.turns_played(), 18, "side 4, two players: 18 turns");
    check_result(&end, &game);
    assert!(end["seats"][1]["fault"].is_null());
    let history: Vec<Vec<String>> = serde_json::from_value(end["history"].clone()).unwrap();
    let replayed: Vec<String> = game
        .turn_history()
        .iter()
        .map(|t| game.board().names(t))
        .collect();
    assert_eq!(
        history.iter().map(|t| t.join(" ")).collect::<Vec<_>>(),
        replayed
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn faulty_engines_are_reported_and_the_game_goes_on() {
    let crash = format!("{FAKE} --crash-at 2");
    let illegal = format!("{FAKE} --illegal-at 1");
    let hang = format!("{FAKE} --hang-at 1");
    let app = server(
        &[
            (&crash, "crash"),
            (&illegal, "illegal"),
            (&hang, "hang"),
            (FAKE, "fake"),
        ],
        "0.05",
    );
    for (engine, words) in [
        ("crash", "crashed"),
        ("illegal", "illegal turn"),
        ("hang", "no answer within"),
    ] {
        let s = create(
            &app,
            new_game(4, json!({"kind": "engine", "engine": engine})),
        )
        .await;
        let id = s["id"].as_str().unwrap().to_string();
        let faulted = |s: &Value| !s["seats"][1]["fault"].is_null();
        // White plays until the engine fails (the crashing one answers its first genmove).
        let s = loop {
            let s = wait(&app, &id, "white or a fault", |s| {
                person_to_move(s) || faulted(s)
            })
            .await;
            if faulted(&s) {
                break s;
            }
            let empty = empty_cells(&s);
            post(
                &app,
                &format!("/api/games/{id}/turn"),
                json!({"colour": "white", "cells": [empty[0], empty[1]]}),
            )
            .await;
        };
        let fault = s["seats"][1]["fault"].as_str().unwrap();
        assert!(fault.contains(words), "{engine}: {fault}");
        assert!(
            fault.starts_with(&format!("black's engine {engine} ")),
            "{fault}"
        );
        assert!(s["notices"][0].as_str().unwrap().contains(words));
        assert_eq!(s["to_move"], 1, "the turn is still black's");
        assert_eq!(s["over"], false);
        let turn = s["turn"].clone();
        let game = referee(&app, &id).await;
        check_result(&s, &game);
        // Nothing moves while the seat is faulted; a person may not play it either.
        tokio::time::sleep(Duration::from_millis(100)).await;
        assert_eq!(get(&app, &format!("/api/games/{id}")).await["turn"], turn);
        refused(
            &app,
            "POST",
            &format!("/api/games/{id}/turn"),
            Some(json!({"colour": "black", "cells": ["a1", "b1"]}).to_string()),
            409,
            "played by the engine",
        )
        .await;

        // Restarted (as a working engine), the seat plays black's turn...
        post(
            &app,
            &format!("/api/games/{id}/seats/1"),
            json!({"kind": "engine", "engine": "fake"}),
        )
        .await;
        let s = wait(&app, &id, "black's turn played", |s| s["to_move"] == 0).await;
        assert!(s["seats"][1]["fault"].is_null());
        // ... then a person takes the seat over and plays both sides to the end.
        post(
            &app,
            &format!("/api/games/{id}/seats/1"),
            json!({"kind": "person"}),
        )
        .await;
        let mut s = get(&app, &format!("/api/games/{id}")).await;
        while s["over"] == false {
            let colour = ["white", "black"][s["to_move"].as_u64().unwrap() as usize];
            let empty = empty_cells(&s);
            s = post(
                &app,
                &format!("/api/games/{id}/turn"),
                json!({"colour": colour, "cells": [empty[0], empty[1]]}),
            )
            .await;
        }
        let game = referee(&app, &id).await;
        assert_eq!(game.turns_played(), 18);
        check_result(&s, &game);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_requests_get_clear_errors_and_change_nothing() {
    let app = server(&[(FAKE, "fake")], "0.05");
    let s = create(&app, new_game(4, json!({"kind": "person"}))).await;
    let id = s["id"].as_str().unwrap().to_string();
    let game = format!("/api/games/{id}");
    post(
        &app,
        &format!("{game}/turn"),
        json!({"colour": "white", "cells": ["a1", "b1"]}),
    )
    .await;
    post(
        &app,
        &format!("{game}/stone"),
        json!({"colour": "black", "cell": "c1"}),
    )
    .await;
    let before = get(&app, &game).await;

    // Each: method, path below the game ("" for the game itself) or absolute, JSON body,
    // status, words of the message.
    let cases: &[(&str, &str, Option<Value>, u16, &str)] = &[
        // Unknown games and pages.
        ("GET", "/api/games/nope", None, 404, "no game 'nope'"),
        (
            "POST",
            "/api/games/nope/stone",
            Some(json!({"colour": "black", "cell": "d1"})),
            404,
            "no game",
        ),
        ("DELETE", "/api/games/nope", None, 404, "no game"),
        ("GET", "/api/nothing", None, 404, "no such page"),
        // Illegal cells.
        (
            "POST",
            "stone",
            Some(json!({"colour": "black", "cell": "z9"})),
            400,
            "z9 is off the board",
        ),
        (
            "POST",
            "stone",
            Some(json!({"colour": "black", "cell": "xx"})),
            400,
            "'xx' is not a cell name",
        ),
        (
            "POST",
            "stone",
            Some(json!({"colour": "black", "cell": "a1"})),
            409,
            "a1 holds a white stone",
        ),
        (
            "POST",
            "stone",
            Some(json!({"colour": "black", "cell": "c1"})),
            409,
            "already holds this turn's white stone",
        ),
        (
            "POST",
            "turn",
            Some(json!({"colour": "black", "cells": ["a1", "d1"]})),
            409,
            "a1 is occupied",
        ),
        (
            "POST",
            "turn",
            Some(json!({"colour": "black", "cells": ["d1", "e2", "c3"]})),
            409,
            "a turn places 2 stones, got 3",
        ),
        (
            "POST",
            "turn",
            Some(json!({"colour": "black"})),
            409,
            "a turn places 2 stones, got 1",
        ),
        // Wrong seats.
        (
            "POST",
            "stone",
            Some(json!({"colour": "white", "cell": "d1"})),
            409,
            "it is black's turn, not white's",
        ),
        (
            "POST",
            "stone",
            Some(json!({"colour": "red", "cell": "d1"})),
            400,
            "red is not playing",
        ),
        (
            "POST",
            "stone",
            Some(json!({"colour": "green", "cell": "d1"})),
            400,
            "'green' is not a colour",
        ),
        (
            "POST",
            "takeback",
            Some(json!({"colour": "white"})),
            409,
            "black's turn",
        ),
        (
            "POST",
            "hint",
            Some(json!({"colour": "white"})),
            409,
            "black's turn",
        ),
        (
            "POST",
            "seats/2",
            Some(json!({"kind": "person"})),
            400,
            "no seat 2",
        ),
        (
            "POST",
            "seats/0",
            Some(json!({"kind": "engine", "engine": "nobody"})),
            400,
            "no engine named 'nobody'",
        ),
        (
            "POST",
            "seats/0",
            Some(json!({"kind": "engine", "engine": "fake", "movetime": 0})),
            400,
            "time per turn",
        ),
        (
            "POST",
            "goto",
            Some(json!({"turn": 5})),
            400,
            "past the last turn",
        ),
        // Wrong shapes.
        (
            "POST",
            "stone",
            Some(json!({"colour": "black"})),
            422,
            "cell",
        ),
        (
            "POST",
            "stone",
            Some(json!({"colour": "black", "cell": "d1", "x": 1})),
            422,
            "unknown field",
        ),
        ("POST", "stone", Some(json!([1, 2])), 422, ""),
        ("POST", "goto", Some(json!({"turn": -1})), 422, ""),
        (
            "POST",
            "seats/0",
            Some(json!({"kind": "robot"})),
            422,
            "robot",
        ),
    ];
    for (method, path, body, status, words) in cases {
        let path = if path.starts_with('/') {
            path.to_string()
        } else {
            format!("{game}/{path}")
        };
        let body = body.as_ref().map(Value::to_string);
        refused(&app, method, &path, body, *status, words).await;
    }
    let p = |rest: &str| format!("{game}/{rest}");
    // Junk and huge bodies.
    refused(
        &app,
        "POST",
        &p("stone"),
        Some("not json".into()),
        400,
        "JSON",
    )
    .await;
    let huge = json!({"colour": "black", "cell": "x".repeat(2 << 20)}).to_string();
    refused(&app, "POST", &p("stone"), Some(huge), 413, "larger than").await;
    let (status, v) = send(&app, "POST", &p("stone"), None).await;
    assert_eq!(status, StatusCode::UNSUPPORTED_MEDIA_TYPE, "{v}");
    assert!(v["error"].is_string());

    let after = get(&app, &game).await;
    assert_eq!(
        after["version"], before["version"],
        "a refusal changed the game"
    );
    for key in ["cells", "pending", "history", "seats", "turn", "to_move"] {
        if key != "seats" {
            assert_eq!(after[key], before[key], "{key} changed");
        }
    }
    assert_eq!(after["seats"][0]["kind"], "person");

    // Bad new games make nothing.
    let make = |v: Value| Some(v.to_string());
    refused(
        &app,
        "POST",
        "/api/games",
        make(json!({"side": 99})),
        400,
        "side 99",
    )
    .await;
    refused(
        &app,
        "POST",
        "/api/games",
        make(json!({"players": 5})),
        400,
        "5 players",
    )
    .await;
    refused(
        &app,
        "POST",
        "/api/games",
        make(json!({"seats": [{"kind": "person"}, {"kind": "person"}, {"kind": "person"}]})),
        400,
        "3 seats for 2 players",
    )
    .await;
    refused(
        &app,
        "POST",
        "/api/games",
        make(json!({"transcript": "boardsize 3\nplay white a1 a1\n"})),
        400,
        "line 2",
    )
    .await;
    refused(
        &app,
        "POST",
        "/api/games",
        make(json!({"transcript": "", "side": 4})),
        400,
        "send neither",
    )
    .await;
    // The undo of nothing.
    let fresh = create(&app, new_game(5, json!({"kind": "person"}))).await;
    let fresh_id = fresh["id"].as_str().unwrap();
    refused(
        &app,
        "POST",
        &format!("/api/games/{fresh_id}/undo"),
        None,
        409,
        "no turn to take back",
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn transcripts_open_step_and_download() {
    let app = server(&[(FAKE, "fake")], "0.05");
    let record = "# omega-match game 3\nboardsize 3\nplayers 2\nclear_board\n\
                  play white a1 c3\nplay black b2 c1\nplay white e5 d4\n";
    let s = create(&app, json!({"transcript": record}).to_string()).await;
    let id = s["id"].as_str().unwrap().to_string();
    assert_eq!(
        (s["side"].clone(), s["turn"].clone(), s["to_move"].clone()),
        (json!(3), json!(3), json!(1))
    );
    assert_eq!(s["seats"][1]["kind"], "person");
    // Step back to the start and forward again.
    let s = post(&app, &format!("/api/games/{id}/goto"), json!({"turn": 1})).await;
    assert_eq!(
        (s["turn"].clone(), s["future"].clone(), s["paused"].clone()),
        (json!(1), json!(2), json!(true))
    );
    assert_eq!(s["history"], json!([["a1", "c3"]]));
    let s = post(&app, &format!("/api/games/{id}/goto"), json!({"turn": 3})).await;
    assert_eq!(s["future"], 0);
    let game = referee(&app, &id).await;
    assert_eq!(
        omega::transcript::write(&game),
        omega::transcript::write(&omega::transcript::read(record).unwrap())
    );
    // Playing the turn that was taken back keeps the rest to step through; another drops it.
    post(&app, &format!("/api/games/{id}/goto"), json!({"turn": 1})).await;
    let s = post(
        &app,
        &format!("/api/games/{id}/turn"),
        json!({"colour": "black", "cells": ["b2", "c1"]}),
    )
    .await;
    assert_eq!(
        (s["turn"].clone(), s["future"].clone()),
        (json!(2), json!(1))
    );
    let s = post(
        &app,
        &format!("/api/games/{id}/turn"),
        json!({"colour": "white", "cells": ["a3", "b3"]}),
    )
    .await;
    assert_eq!(s["future"], 0);

    // An engine given the seat to move waits while the game is paused, moves on resume.
    let s = post(
        &app,
        &format!("/api/games/{id}/seats/1"),
        json!({"kind": "engine", "engine": "fake"}),
    )
    .await;
    assert_eq!(s["seats"][1]["engine"], "fake");
    post(&app, &format!("/api/games/{id}/goto"), json!({"turn": 3})).await;
    tokio::time::sleep(Duration::from_millis(100)).await;
    assert_eq!(get(&app, &format!("/api/games/{id}")).await["turn"], 3);
    post(&app, &format!("/api/games/{id}/resume"), json!(null)).await;
    wait(&app, &id, "the engine's turn", |s| s["turn"] == 4).await;

    // The live stream starts with the state, and the game can be ended.
    let req = Request::get(format!("/api/games/{id}/events"))
        .body(Body::empty())
        .unwrap();
    let res = app.clone().oneshot(req).await.unwrap();
    assert_eq!(res.headers()["content-type"], "text/event-stream");
    let mut stream = res.into_body().into_data_stream();
    let first = stream.next().await.unwrap().unwrap();
    let first = String::from_utf8_lossy(&first);
    assert!(first.starts_with("event: state\ndata: {"), "{first}");
    assert!(first.contains(&format!("\"id\":\"{id}\"")));
    let (status, _) = send(&app, "DELETE", &format!("/api/games/{id}"), None).await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    refused(
        &app,
        "GET",
        &format!("/api/games/{id}"),
        None,
        404,
        "no game",
    )
    .await;
}

#[tokio::test]
async fn the_page_is_served() {
    let app = server(&[(FAKE, "fake")], "1");
    for (path, kind, words) in [
        ("/", "text/html", "<svg id=\"board\""),
        ("/app.js", "text/javascript", "EventSource"),
        ("/style.css", "text/css", ".cell"),
    ] {
        let req = Request::get(path).body(Body::empty()).unwrap();
        let res = app.clone().oneshot(req).await.unwrap();
        assert_eq!(res.status(), StatusCode::OK);
        assert!(res.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with(kind));
        let body = axum::body::to_bytes(res.into_body(), 1 << 20)
            .await
            .unwrap();
        assert!(String::from_utf8_lossy(&body).contains(words), "{path}");
    }
    let engines = get(&app, "/api/engines").await;
    assert_eq!(engines, json!({"engines": ["fake"], "movetime": 1.0}));
}

/// `omega-web --engine-process OPTIONS` is the omega engine on stdin/stdout, with omega's
/// options: it answers the protocol and plays a legal turn.
#[test]
fn omega_web_with_engine_process_is_the_engine() {
    let mut child = Command::new(WEB)
        .args(["--engine-process", "--threads", "1", "--playouts", "200"])
        .env_remove("RUST_LOG")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start omega-web");
    let mut stdin = child.stdin.take().unwrap();
    stdin
        .write_all(b"boardsize 4\ngenmove white\nquit\n")
        .unwrap();
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{:?}: {stdout}", out.status);
    let answers: Vec<&str> = stdout.split_terminator("\n\n").collect();
    assert_eq!(answers.len(), 3, "{stdout:?}");
    assert_eq!(answers[0], "= ");
    assert_eq!(answers[2], "= ");
    let turn = answers[1].strip_prefix("= ").expect("a success answer");
    let mut game = omega::game::Game::new(4, 2).unwrap();
    let cells: Vec<_> = turn
        .split_whitespace()
        .map(|w| game.board().parse(w).expect("a cell"))
        .collect();
    game.play_turn(omega::game::Colour::White, &cells)
        .expect("a legal turn");

    // A bad option is omega's refusal, exit code 2, not omega-web's.
    let out = Command::new(WEB)
        .args(["--engine-process", "--bogus"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).starts_with("omega: unknown option '--bogus'"));
}

/// Started with no omega beside it (a copy in a folder of its own), omega-web offers itself
/// as the default engine, and warns of nothing.
#[test]
fn omega_web_alone_is_its_own_default_engine() {
    let dir = std::env::temp_dir().join(format!("omega-web-alone-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // Canonical, as the program finds its own path.
    let web = dir.canonicalize().unwrap().join("omega-web");
    std::fs::copy(WEB, &web).unwrap();
    let mut child = Command::new(&web)
        .args(["--port", "0"])
        .env_remove("RUST_LOG")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start omega-web");
    // The engines line comes on stderr before the address on stdout.
    let mut stderr = BufReader::new(child.stderr.take().unwrap());
    let mut lines = Vec::new();
    let mut line = String::new();
    while stderr.read_line(&mut line).unwrap() > 0 {
        lines.push(std::mem::take(&mut line));
        if lines.last().unwrap().contains("engines:") {
            break;
        }
    }
    let _ = child.kill();
    let _ = child.wait();
    std::fs::remove_dir_all(&dir).unwrap();
    let expected = format!(
        "omega-web: engines: omega ({} --engine-process)\n",
        web.display()
    );
    assert_eq!(lines, [expected]);
}
