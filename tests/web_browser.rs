//! The page in real browsers: headless Chromium and headless Firefox, each driven over
//! WebDriver (chromedriver, geckodriver, and the fantoccini client), play a side-4 two-player
//! game against the engine by clicking cells; the final scores and group outlines the page
//! shows must be the referee's.
//!
//! Needs Debian's `chromium`, `chromium-driver` and `firefox-esr`, and geckodriver (`cargo
//! install geckodriver --locked`); `.ci/run` installs them. Without them a test fails and says
//! so, unless `OMEGA_SKIP_BROWSER=1` is set. `OMEGA_CHROMIUM`, `OMEGA_CHROMEDRIVER`,
//! `OMEGA_FIREFOX` and `OMEGA_GECKODRIVER` name other binaries. Screenshots go to
//! `target/omega-web*.png` (Chromium) and `target/omega-web-firefox*.png`, the last of each
//! (`-phone`) at a phone's width, 390 CSS px.

use fantoccini::{Client, ClientBuilder, Locator};
use omega::game::Colour;
use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const WEB: &str = env!("CARGO_BIN_EXE_omega-web");
const OMEGA: &str = env!("CARGO_BIN_EXE_omega");

/// A child process killed when the test ends, however it ends.
struct Killed(Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// The browser's processes of one profile, ended when the test ends, however it ends: killing
/// the driver leaves its browser running, and a failed test never reaches `close()`. A
/// process belongs to the profile when one of its arguments is `arg`.
struct Browser {
    arg: String,
    profile: PathBuf,
}

impl Drop for Browser {
    fn drop(&mut self) {
        let Ok(procs) = std::fs::read_dir("/proc") else {
            return;
        };
        for entry in procs.flatten() {
            let name = entry.file_name();
            let Some(pid) = name
                .to_str()
                .filter(|n| n.bytes().all(|b| b.is_ascii_digit()))
            else {
                continue;
            };
            let cmdline = std::fs::read(entry.path().join("cmdline")).unwrap_or_default();
            if cmdline
                .split(|&b| b == 0)
                .any(|arg| arg == self.arg.as_bytes())
            {
                let _ = Command::new("kill").args(["-9", pid]).status();
            }
        }
        std::thread::sleep(Duration::from_millis(100));
        let _ = std::fs::remove_dir_all(&self.profile);
    }
}

fn binary(env: &str, default: &str) -> Option<PathBuf> {
    let path = std::env::var_os(env).map_or_else(|| PathBuf::from(default), PathBuf::from);
    path.exists().then_some(path)
}

fn free_port() -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").expect("a free port");
    listener.local_addr().unwrap().port()
}

/// Starts omega-web on a free port with the real engine; returns it and its address.
fn start_server() -> (Killed, String) {
    let engine = format!("{OMEGA} --threads 1 --seed 11");
    let mut child = Command::new(WEB)
        .args(["--port", "0", "--engine", &engine, "--name", "omega"])
        .args(["--movetime", "0.3"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start omega-web");
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .expect("omega-web prints its address");
    let url = line
        .trim()
        .strip_prefix("omega-web: ")
        .unwrap_or_else(|| panic!("unexpected first line '{line}'"))
        .to_string();
    (Killed(child), url)
}

/// A plain HTTP GET on loopback (the referee's own answer, not the page's).
fn http_get(url: &str) -> String {
    let rest = url.strip_prefix("http://").unwrap();
    let (host, path) = rest.split_once('/').unwrap();
    let mut stream = TcpStream::connect(host).unwrap();
    write!(
        stream,
        "GET /{path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    let (head, body) = answer.split_once("\r\n\r\n").unwrap();
    assert!(head.starts_with("HTTP/1.1 200"), "{head}");
    body.to_string()
}

/// Runs `script` (a JavaScript expression) until it is true, at most `limit`.
async fn wait_until(client: &Client, script: &str, limit: Duration) {
    let start = Instant::now();
    loop {
        let v = client
            .execute(&format!("return Boolean({script});"), vec![])
            .await
            .expect("script runs");
        if v == Value::Bool(true) {
            return;
        }
        assert!(
            start.elapsed() < limit,
            "waited {limit:?} for {script}; status: {}",
            text(client, "#status").await
        );
        tokio::time::sleep(Duration::from_millis(40)).await;
    }
}

async fn text(client: &Client, css: &str) -> String {
    match client.find(Locator::Css(css)).await {
        Ok(e) => e.text().await.unwrap_or_default(),
        Err(_) => String::new(),
    }
}

async fn script(client: &Client, script: &str) -> Value {
    client.execute(script, vec![]).await.expect("script runs")
}

/// Clicks the element `css` like a person, again if the page redrew it meanwhile.
async fn click(client: &Client, css: &str) {
    for _ in 0..5 {
        if let Ok(e) = client.find(Locator::Css(css)).await {
            if e.click().await.is_ok() {
                return;
            }
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("cannot click {css}");
}

async fn screenshot(client: &Client, name: &str) {
    let png = client.screenshot().await.expect("a screenshot");
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("target");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join(name), png).unwrap();
}

const FLAGS: [&str; 9] = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--window-size=1280,960",
];

/// The two browsers this test knows.
#[derive(Clone, Copy, PartialEq)]
enum Kind {
    Chromium,
    Firefox,
}

/// What a browser session needs kept alive until the test ends.
struct Session {
    client: Client,
    _browser: Browser,
    _driver: Killed,
}

/// Starts the driver of `kind` and a headless browser session through it; `None` when
/// `OMEGA_SKIP_BROWSER=1`.
async fn session(kind: Kind) -> Option<Session> {
    if std::env::var("OMEGA_SKIP_BROWSER").is_ok_and(|v| v == "1") {
        eprintln!("OMEGA_SKIP_BROWSER=1: the browser test is skipped");
        return None;
    }
    let (browser, driver_path) = match kind {
        Kind::Chromium => {
            let missing = "the browser test needs Chromium and ChromeDriver: `apt-get install \
                           chromium chromium-driver` (Debian), or set OMEGA_CHROMIUM and \
                           OMEGA_CHROMEDRIVER, or OMEGA_SKIP_BROWSER=1 to skip it";
            (
                binary("OMEGA_CHROMIUM", "/usr/bin/chromium").expect(missing),
                binary("OMEGA_CHROMEDRIVER", "/usr/bin/chromedriver").expect(missing),
            )
        }
        Kind::Firefox => {
            let missing = "the browser test needs Firefox and geckodriver: `apt-get install \
                           firefox-esr` (Debian) and `cargo install geckodriver --locked`, or \
                           set OMEGA_FIREFOX and OMEGA_GECKODRIVER, or OMEGA_SKIP_BROWSER=1 to \
                           skip it";
            let cargo_bin = std::env::var_os("CARGO_HOME")
                .map(PathBuf::from)
                .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cargo")))
                .unwrap_or_default()
                .join("bin/geckodriver");
            (
                binary("OMEGA_FIREFOX", "/usr/bin/firefox-esr").expect(missing),
                binary("OMEGA_GECKODRIVER", &cargo_bin.to_string_lossy()).expect(missing),
            )
        }
    };
    let name = if kind == Kind::Chromium {
        "chromium"
    } else {
        "firefox"
    };
    // A browser that starts slowly on a loaded machine (seen with Firefox while the other
    // test suites ran) fails its session, and once the driver itself went away: each of a few
    // attempts starts both afresh. The driver's output goes to a log beside the profiles
    // (`target/tmp/{chromium,firefox}-driver-N.log`, one for each attempt).
    let mut failures = Vec::new();
    for attempt in 0..SESSION_ATTEMPTS {
        let tmp = Path::new(env!("CARGO_TARGET_TMPDIR"));
        let log = tmp.join(format!("{name}-driver-{attempt}.log"));
        let port = free_port();
        let driver = match start_driver(&driver_path, port, &log) {
            Ok(d) => d,
            Err(e) => {
                eprintln!("{name}: no driver on attempt {}: {e}", attempt + 1);
                failures.push(e);
                continue;
            }
        };
        let profile = tmp.join(format!("{name}-profile-{}-{attempt}", std::process::id()));
        let _ = std::fs::remove_dir_all(&profile);
        std::fs::create_dir_all(&profile).expect("a profile folder");
        let (caps, arg) = match kind {
            Kind::Chromium => {
                let arg = format!("--user-data-dir={}", profile.display());
                let mut args: Vec<String> = FLAGS.iter().map(|f| f.to_string()).collect();
                args.push(arg.clone());
                let caps = json!({ "goog:chromeOptions": { "binary": browser, "args": args } });
                (caps, arg)
            }
            Kind::Firefox => {
                // Firefox gives its window a minimum width for its toolbars (500 CSS px in
                // headless Firefox 153, whatever the device pixel ratio), more than a phone's:
                // the profile's userChrome.css lifts it, so that the window narrows to a phone's
                // width as Chromium's does.
                let chrome = profile.join("chrome");
                std::fs::create_dir_all(&chrome).expect("a profile folder");
                std::fs::write(
                    chrome.join("userChrome.css"),
                    ":root { min-width: 0 !important; }\n",
                )
                .expect("the profile's userChrome.css");
                let prefs = json!({ "toolkit.legacyUserProfileCustomizations.stylesheets": true });
                let arg = profile.display().to_string();
                let size = ["-width", "1280", "-height", "960"];
                let mut args = vec!["-headless", "-profile", &arg];
                args.extend(size);
                let options = json!({ "binary": browser, "args": args, "prefs": prefs });
                (json!({ "moz:firefoxOptions": options }), arg)
            }
        };
        let guard = Browser { arg, profile };
        let Value::Object(caps) = caps else {
            unreachable!()
        };
        match ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new())
            .capabilities(caps)
            .connect(&format!("http://127.0.0.1:{port}"))
            .await
        {
            Ok(client) => {
                return Some(Session {
                    client,
                    _browser: guard,
                    _driver: driver,
                })
            }
            Err(e) => {
                eprintln!(
                    "{name}: no session on attempt {}: {e} (the driver's log: {})",
                    attempt + 1,
                    log.display()
                );
                failures.push(e.to_string());
            }
        }
    }
    panic!("{name}: no browser session: {failures:?}");
}

/// Starts the WebDriver server `path` on `port`, its output to `log`, and waits until it
/// listens.
fn start_driver(path: &Path, port: u16, log: &Path) -> Result<Killed, String> {
    let out = std::fs::File::create(log).map_err(|e| format!("{}: {e}", log.display()))?;
    let err = out.try_clone().map_err(|e| e.to_string())?;
    let child = Command::new(path)
        .arg(format!("--port={port}"))
        .stdout(out)
        .stderr(err)
        .spawn()
        .map_err(|e| format!("cannot start {}: {e}", path.display()))?;
    let mut driver = Killed(child);
    let start = Instant::now();
    while TcpStream::connect(("127.0.0.1", port)).is_err() {
        if let Ok(Some(status)) = driver.0.try_wait() {
            return Err(format!(
                "{} ended ({status}); its log: {}",
                path.display(),
                log.display()
            ));
        }
        if start.elapsed() > Duration::from_secs(20) {
            return Err(format!("{} did not listen within 20 s", path.display()));
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    Ok(driver)
}

/// Attempts at starting a browser session before the test fails.
const SESSION_ATTEMPTS: usize = 3;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_person_plays_a_whole_game_against_the_engine_by_clicking_in_chromium() {
    if let Some(session) = session(Kind::Chromium).await {
        play_a_game(&session.client, "omega-web").await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_person_plays_a_whole_game_against_the_engine_by_clicking_in_firefox() {
    if let Some(session) = session(Kind::Firefox).await {
        play_a_game(&session.client, "omega-web-firefox").await;
    }
}

/// The whole game: a new side-4 game against the engine, every person's turn clicked (with a
/// take-back, an illegal click and a hint on the way, and the engine's analysis shown while
/// it thinks), then the page's final scores and outlines against the referee's game, then the
/// layout on a phone's width; screenshots named `shots*.png`.
async fn play_a_game(client: &Client, shots: &str) {
    let (_server, url) = start_server();
    let long = Duration::from_secs(30);

    // The new-game dialog opens on a first visit: side 4, two players, the engine black.
    client.goto(&url).await.unwrap();
    wait_until(client, "document.getElementById('setup').open", long).await;
    let select = |css: &'static str, value: &'static str| async move {
        let e = client.find(Locator::Css(css)).await.unwrap();
        e.select_by_value(value).await.unwrap();
    };
    select("#side", "4").await;
    select("#players-count", "2").await;
    select("#seat-0", "").await;
    select("#seat-1", "omega").await;
    click(client, "#start").await;
    wait_until(client, "document.body.dataset.game", long).await;
    // What the page shows of the engine's analysis while it thinks (from genmove_analyze) is
    // noted as it appears: its best turn drawn on the board, its win chance in the panel.
    script(
        client,
        "window.seen = { best: 0, winrate: '' };
         new MutationObserver(() => {
           if (document.querySelector('.mark.best')) window.seen.best += 1;
           const w = document.getElementById('winrate');
           if (w) window.seen.winrate = w.textContent;
         }).observe(document.body, { subtree: true, childList: true });",
    )
    .await;

    let mut person_turns = 0;
    loop {
        wait_until(
            client,
            "document.body.dataset.mine === 'true' || document.body.dataset.over === 'true'",
            long,
        )
        .await;
        if script(client, "return document.body.dataset.over;").await == "true" {
            break;
        }
        let turn = script(client, "return document.body.dataset.turn;").await;
        for k in 0..2 {
            wait_until(
                client,
                &format!("document.getElementById('board').dataset.pending === '{k}'"),
                long,
            )
            .await;
            let empty = script(
                client,
                "return [...document.querySelectorAll('.cell.empty')].map(e => e.dataset.cell);",
            )
            .await;
            let empty = empty.as_array().expect("cell names");
            let cell = empty[(person_turns * 7 + k * 11) % empty.len()]
                .as_str()
                .unwrap();
            click(client, &format!("#cell-{cell}")).await;
            if person_turns == 1 && k == 0 {
                // The take-back inside the turn, then the same stone again.
                wait_until(
                    client,
                    "document.getElementById('board').dataset.pending === '1'",
                    long,
                )
                .await;
                click(client, "#take-back").await;
                wait_until(
                    client,
                    "document.getElementById('board').dataset.pending === '0'",
                    long,
                )
                .await;
                click(client, &format!("#cell-{cell}")).await;
            }
        }
        wait_until(
            client,
            "document.getElementById('board').dataset.pending === '2'",
            long,
        )
        .await;
        if person_turns == 2 {
            // An illegal click is refused with a reason on the page, and changes nothing.
            let taken = script(
                client,
                "return document.querySelector('.cell:not(.empty):not(.pending)').dataset.cell;",
            )
            .await;
            click(client, "#take-back").await;
            click(client, &format!("#cell-{}", taken.as_str().unwrap())).await;
            wait_until(
                client,
                "document.getElementById('message').textContent",
                long,
            )
            .await;
            let message = text(client, "#message").await;
            assert!(message.contains("holds a"), "message: '{message}'");
            let empty = script(
                client,
                "return document.querySelector('.cell.empty').dataset.cell;",
            )
            .await;
            click(client, &format!("#cell-{}", empty.as_str().unwrap())).await;
            wait_until(
                client,
                "document.getElementById('board').dataset.pending === '2'",
                long,
            )
            .await;
            // A hint from the engine, shown on the page.
            click(client, "#hint").await;
            wait_until(client, "document.getElementById('hint-text')", long).await;
        }
        if person_turns == 4 {
            screenshot(client, &format!("{shots}.png")).await;
        }
        click(client, "#play-turn").await;
        wait_until(
            client,
            &format!("document.body.dataset.turn !== {turn}"),
            long,
        )
        .await;
        person_turns += 1;
    }
    // Side 4, two players: 18 turns, 9 of them the person's.
    assert_eq!(person_turns, 9);
    screenshot(client, &format!("{shots}-end.png")).await;

    // The referee's game, as the server gives it for download, read with the crate's rules.
    let id = script(client, "return document.body.dataset.game;").await;
    let record = http_get(&format!(
        "{url}api/games/{}/transcript",
        id.as_str().unwrap()
    ));
    let game = omega::transcript::read(&record).expect("the download is a transcript");
    assert!(game.is_over(), "{record}");
    assert_eq!(game.turns_played(), 18);
    for colour in [Colour::White, Colour::Black] {
        let shown = text(client, &format!("#score-{}", colour.index())).await;
        assert_eq!(shown, game.score(colour).to_string(), "{colour}'s score");
    }
    // Each colour's groups outlined: one edge for every side of a stone that does not touch
    // a stone of its colour.
    for colour in [Colour::White, Colour::Black] {
        let board = game.board();
        let edges: usize = board
            .cells()
            .filter(|&c| game.stone(c) == Some(colour))
            .map(|c| {
                6 - board
                    .neighbours(c)
                    .iter()
                    .filter(|&&n| game.stone(n) == Some(colour))
                    .count()
            })
            .sum();
        let shown = script(
            client,
            &format!(
                "return document.querySelector('.outline.o{}').dataset.edges;",
                colour.index()
            ),
        )
        .await;
        assert_eq!(shown, edges.to_string(), "{colour}'s outline");
    }
    let seen = script(client, "return window.seen;").await;
    eprintln!("analysis shown {shots}: {seen}");
    assert!(
        seen["best"].as_u64() > Some(0),
        "no best turn drawn: {seen}"
    );
    let win = seen["winrate"].as_str().unwrap_or_default();
    assert!(
        win.strip_suffix('%')
            .and_then(|p| p.parse::<u32>().ok())
            .is_some_and(|p| p <= 100),
        "no win chance shown: {seen}"
    );
    let winner = game.winner().0;
    assert_eq!(text(client, "#winner").await, winner.name());
    let result = text(client, "#result").await;
    assert!(
        result.contains(&format!("{} wins", winner.name())),
        "{result}"
    );

    // The same page on a phone's screen, 390 CSS px wide in both browsers: nothing wider than
    // the screen (no sideways scrolling), the board across most of it, and the seat panel
    // below the board instead of beside it.
    client.set_window_size(390, 844).await.unwrap();
    tokio::time::sleep(Duration::from_millis(300)).await;
    screenshot(client, &format!("{shots}-phone.png")).await;
    let layout = script(
        client,
        "const w = window.innerWidth, r = s => document.querySelector(s).getBoundingClientRect();
         return [w, document.documentElement.scrollWidth, r('#board').left, r('#board').right,
                 r('#play').bottom, r('#panel').top];",
    )
    .await;
    eprintln!("phone layout {shots}: {layout}");
    let at = |i: usize| layout[i].as_f64().unwrap_or(f64::NAN);
    let (width, scroll, left, right) = (at(0), at(1), at(2), at(3));
    assert!(
        width <= 400.0,
        "the window did not narrow to a phone's: {layout}"
    );
    assert!(scroll <= width, "the page scrolls sideways: {layout}");
    assert!(
        left >= 0.0 && right <= width,
        "the board leaves the screen: {layout}"
    );
    assert!(right - left >= 0.8 * width, "the board is small: {layout}");
    assert!(
        at(5) >= at(4) - 1.0,
        "the panel is not below the board: {layout}"
    );
    client.clone().close().await.unwrap();
}
