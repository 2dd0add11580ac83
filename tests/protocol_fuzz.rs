//! Property tests of the protocol layer: no input line makes the engine panic, every answer is
//! framed as GTP 2 requires, and a refused command leaves the game exactly as it was.

use omega::game::Colour;
use omega::protocol::fuzzcheck::{self, check_frame};
use omega::protocol::{self, Session, MAX_LINE};
use proptest::prelude::*;

fn session(seed: u64) -> Session {
    fuzzcheck::random_session(seed)
}

// ---- input generators ------------------------------------------------------------------

const NAMES: &[&str] = &[
    "protocol_version",
    "name",
    "version",
    "known_command",
    "list_commands",
    "boardsize",
    "players",
    "clear_board",
    "play",
    "play",
    "play",
    "genmove",
    "genmove",
    "reg_genmove",
    "undo",
    "undo",
    "score",
    "final_score",
    "showboard",
    "time_settings",
    "time_left",
    "to_move",
    "analyze",
    "genmove_analyze",
    "gogui-interrupt",
    "list_stones",
    "loadgame",
    "game",
    "list_games",
    "rules",
    "hexed_start",
    "PLAY",
    "foo",
    "",
];

fn number() -> impl Strategy<Value = String> {
    prop_oneof![
        (0u64..16).prop_map(|n| n.to_string()),
        any::<u64>().prop_map(|n| n.to_string()),
        "[0-9]{19,40}",
        "-?[0-9]{0,3}\\.?[0-9]{0,3}(e[0-9])?",
    ]
}

fn colour() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::sample::select(vec![
            "w", "b", "W", "B", "white", "black", "red", "blue", "Red", "BLUE", "green", "g", "x",
            "",
        ])
        .prop_map(str::to_string),
        "[a-zA-Z]{1,6}",
    ]
}

fn cell() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => "[a-hj-n][1-9]",
        2 => "[a-zA-Z][0-9]{1,3}",
        1 => "[a-z][0-9]{15,30}",
        1 => "[a-z]0+[0-9]?",
        1 => "[a-z]?[-+]?[0-9]?[a-z]?",
    ]
}

fn argument() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => cell(),
        2 => colour(),
        2 => number(),
        1 => prop::sample::select(NAMES.to_vec()).prop_map(str::to_string),
        1 => prop::collection::vec(any::<u8>(), 0..6)
            .prop_map(|b| String::from_utf8_lossy(&b).into_owned()),
    ]
}

fn seconds() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => "[0-9]{1,3}(\\.[0-9]{0,2})?",
        1 => "\\.[0-9]{1,2}",
        1 => number(),
    ]
}

/// A command name with arguments of about the right shape, so that many are accepted.
fn shaped_command() -> impl Strategy<Value = Vec<String>> {
    prop_oneof![
        6 => (colour(), prop::collection::vec("[a-g][1-7]", 1..6))
            .prop_map(|(c, cells)| [vec!["play".into(), c], cells].concat()),
        2 => (prop::sample::select(vec!["genmove", "reg_genmove"]), colour())
            .prop_map(|(n, c)| vec![n.to_string(), c]),
        1 => (prop::sample::select(vec!["boardsize", "players"]), prop_oneof![
            3 => (0u64..16).prop_map(|n| n.to_string()), 1 => number()])
            .prop_map(|(n, v)| vec![n.to_string(), v]),
        1 => (seconds(), seconds(), number())
            .prop_map(|(m, b, k)| vec!["time_settings".into(), m, b, k]),
        1 => (colour(), seconds(), number())
            .prop_map(|(c, t, k)| vec!["time_left".into(), c, t, k]),
        1 => prop::sample::select(NAMES.to_vec())
            .prop_map(|n| vec!["known_command".into(), n.to_string()]),
        // Games switch under the other commands, so every game meets every command.
        1 => prop::sample::select(vec!["omega", "yavalath", "hexed", "go"])
            .prop_map(|g| vec!["game".into(), g.to_string()]),
        1 => (prop::sample::select(vec!["on", "off", "maybe"]), colour())
            .prop_map(|(on, c)| vec!["rules".into(), "swap".into(), on.to_string(), c]),
        1 => colour().prop_map(|c| vec!["play".into(), c, "swap".into()]),
        1 => (cell(), colour(), colour())
            .prop_map(|(x, c, f)| vec!["hexed_start".into(), x, c, f]),
        3 => prop::sample::select(vec![
            "undo", "undo", "score", "final_score", "showboard", "to_move", "clear_board",
            "protocol_version", "name", "version", "list_commands",
        ]).prop_map(|n| vec![n.to_string()]),
    ]
}

/// Any command name with arguments of any shape.
fn random_command() -> impl Strategy<Value = Vec<String>> {
    (
        prop::sample::select(NAMES.to_vec()),
        prop::option::of(colour()),
        prop::collection::vec(argument(), 0..6),
    )
        .prop_map(|(name, colour, args)| {
            let mut words = vec![name.to_string()];
            words.extend(colour);
            words.extend(args);
            words
        })
}

/// A line that looks like a command: optional id, a name, arguments, odd spacing, an optional
/// comment and CR, and a control character now and then.
fn command_line() -> impl Strategy<Value = Vec<u8>> {
    (
        prop::option::of(prop_oneof!["[0-9]{1,3}", "[0-9]{20,30}"]),
        prop_oneof![3 => shaped_command(), 2 => random_command()],
        prop::sample::select(vec![" ", " ", " ", "  ", "\t", " \t"]),
        prop::option::weighted(0.2, "#[ -~]{0,10}"),
        prop::bool::weighted(0.1),
        prop::option::weighted(0.1, (any::<prop::sample::Index>(), 0u8..32)),
    )
        .prop_map(|(id, command, sep, comment, cr, control)| {
            let mut words: Vec<String> = id.into_iter().collect();
            words.extend(command);
            let mut line = words.join(sep).into_bytes();
            if let Some(c) = comment {
                line.extend_from_slice(c.as_bytes());
            }
            if cr {
                line.push(b'\r');
            }
            if let Some((at, byte)) = control {
                if byte != b'\n' {
                    line.insert(at.index(line.len() + 1), byte);
                }
            }
            line
        })
}

/// Any line the reader can hand over (no LF inside).
fn any_line() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        6 => command_line(),
        2 => prop::collection::vec(any::<u8>().prop_filter("no LF", |&b| b != b'\n'), 0..80),
        1 => (prop::sample::select(NAMES.to_vec()), any::<u8>(), 1000usize..20_000).prop_map(
            |(name, byte, n)| {
                let byte = if byte == b'\n' { b' ' } else { byte };
                let mut line = format!("{name} ").into_bytes();
                line.resize(line.len() + n, byte);
                line
            }
        ),
        1 => (1000usize..20_000).prop_map(|n| {
            let mut line = b"play w".to_vec();
            for _ in 0..n {
                line.extend_from_slice(b" a1");
            }
            line
        }),
    ]
}

/// A few legal-ish set-up lines first, so that games are in progress and sometimes over.
fn set_up() -> impl Strategy<Value = Vec<Vec<u8>>> {
    (2u64..7, 2u64..5, 0usize..6).prop_map(|(side, players, turns)| {
        let mut lines = vec![
            format!("boardsize {side}").into_bytes(),
            format!("players {players}").into_bytes(),
        ];
        for t in 0..turns {
            let c = Colour::from_index(t % players as usize);
            lines.push(format!("genmove {c}").into_bytes());
        }
        lines
    })
}

/// A `play` of the player to move on empty cells, in upper or lower case (when the game is
/// over, the refusal is checked like any other).
fn legal_play(s: &Session, salt: usize) -> Vec<u8> {
    let game = s.engine.game();
    let board = game.board();
    let empties = game.empties();
    let mut words = vec!["play".to_string(), game.to_move().to_string()];
    for k in 0..game.players().min(empties.len()) {
        let cell = empties[(salt * 7 + k * 13) % empties.len()];
        words.push(board.name(cell));
    }
    if salt.is_multiple_of(3) {
        for w in &mut words[1..] {
            *w = w.to_uppercase();
        }
    }
    words.join(" ").into_bytes()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn any_line_is_answered_framed_and_refusals_change_nothing(
        seed in any::<u64>(),
        setup in set_up(),
        lines in prop::collection::vec(prop::option::weighted(0.85, any_line()), 1..25),
    ) {
        let mut s = session(seed);
        let lines = setup.into_iter().map(Some).chain(lines);
        for (i, line) in lines.enumerate() {
            // `None` stands for a legal play, made from the position.
            let line = line.unwrap_or_else(|| legal_play(&s, i));
            fuzzcheck::step(&mut s, &line).map_err(TestCaseError::fail)?;
        }
    }
}

/// The framing check itself must be able to fail.
#[test]
fn frame_check_rejects_bad_answers() {
    assert!(check_frame(b"name", "= omega\n\n").unwrap());
    assert!(!check_frame(b"7 foo", "?7 unknown command\n\n").unwrap());
    for bad in [
        "= omega\n",
        "= omega\n\n\n",
        "= a\n\nb\n\n",
        "omega\n\n",
        "=7 omega\n\n",
    ] {
        assert!(check_frame(b"name", bad).is_err(), "{bad:?}");
    }
    assert!(check_frame(b"7 name", "= omega\n\n").is_err());
}

/// Runs `protocol::run` on `input` and returns the answers, split on the empty lines.
fn run_answers(input: Vec<u8>) -> (Vec<String>, Session) {
    let mut s = session(1);
    let mut out = Vec::new();
    protocol::run(&mut s, std::io::Cursor::new(input), &mut out).unwrap();
    let text = String::from_utf8(out).expect("answers are UTF-8");
    assert!(text.ends_with("\n\n"), "{text:?}");
    let answers = text[..text.len() - 2]
        .split("\n\n")
        .map(str::to_string)
        .collect();
    (answers, s)
}

#[test]
fn huge_lines_get_one_answer_each_and_the_session_goes_on() {
    let mut input = b"boardsize 3\n1 play w a1 b2\n".to_vec();
    // A 1 MB line (under MAX_LINE): a play with far too many cells.
    let mut play = b"2 play b".to_vec();
    while play.len() < 1_000_000 {
        play.extend_from_slice(b" c3");
    }
    input.extend_from_slice(&play);
    input.push(b'\n');
    // A 1 MB word.
    input.extend_from_slice(b"3 known_command ");
    input.resize(input.len() + 1_000_000, b'x');
    input.push(b'\n');
    // Exactly MAX_LINE bytes still fits; one byte more does not.
    let mut exact = b"4 name ".to_vec();
    exact.resize(MAX_LINE, b'y');
    input.extend_from_slice(&exact);
    input.push(b'\n');
    let mut over = b"5 play b c3 a2 ".to_vec();
    over.resize(MAX_LINE + 1, 0xff);
    input.extend_from_slice(&over);
    input.push(b'\n');
    // Many megabytes without any line feed, then the game goes on.
    input.resize(input.len() + 3 * MAX_LINE, b'9');
    input.extend_from_slice(b"\n6 score\n7 play b c3 a2\nscore\n");
    // A last over-long line cut by the end of input.
    input.resize(input.len() + MAX_LINE + 5, b'z');

    let (answers, s) = run_answers(input);
    let too_long = format!("? line longer than {MAX_LINE} bytes");
    let too_long_5 = format!("?5 line longer than {MAX_LINE} bytes");
    assert_eq!(
        answers,
        [
            "= ",
            "=1 ",
            "?2 illegal move: a turn places 2 stones, got 333331",
            "=3 false",
            "?4 syntax error: name takes no arguments",
            &too_long_5,
            &too_long,
            "=6 white 1 black 1",
            "=7 ",
            "= white 1 black 2",
            &too_long,
        ]
    );
    assert_eq!(s.engine.game().turns_played(), 2);
}

#[test]
fn run_stops_at_quit_and_answers_the_last_line_without_line_feed() {
    let (answers, s) = run_answers(b"name\n\n# c\n9 quit\nname\n".to_vec());
    assert_eq!(answers, ["= omega", "=9 "]);
    assert!(s.quit_requested());
    let (answers, s) = run_answers(b"boardsize 2\r\nplay w a1 b1".to_vec());
    assert_eq!(answers, ["= ", "= "]);
    assert!(!s.quit_requested());
    assert_eq!(s.engine.game().stones_placed(), 2);
}
