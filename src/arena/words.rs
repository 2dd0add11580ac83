//! Splits a command line into words the way a POSIX shell does, without expanding anything:
//! blanks separate words; `'...'` keeps everything literally; `"..."` keeps everything except
//! that a backslash escapes `"`, `\`, `$` and `` ` ``; outside quotes a backslash keeps the
//! next character literally. Adjacent quoted and bare parts join into one word.

use std::fmt;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SplitError {
    UnterminatedQuote(char),
    TrailingBackslash,
}

impl fmt::Display for SplitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SplitError::UnterminatedQuote(q) => write!(f, "unterminated {q} quote"),
            SplitError::TrailingBackslash => write!(f, "a backslash ends the line"),
        }
    }
}

pub fn split_words(line: &str) -> Result<Vec<String>, SplitError> {
    let mut words = Vec::new();
    // The word being built; `None` between words (so that `''` still makes an empty word).
    let mut word: Option<String> = None;
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            c if c.is_whitespace() => {
                if let Some(w) = word.take() {
                    words.push(w);
                }
            }
            '\\' => {
                let next = chars.next().ok_or(SplitError::TrailingBackslash)?;
                word.get_or_insert_with(String::new).push(next);
            }
            '\'' => {
                let w = word.get_or_insert_with(String::new);
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(q) => w.push(q),
                        None => return Err(SplitError::UnterminatedQuote('\'')),
                    }
                }
            }
            '"' => {
                let w = word.get_or_insert_with(String::new);
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(e @ ('"' | '\\' | '$' | '`')) => w.push(e),
                            Some(other) => {
                                w.push('\\');
                                w.push(other);
                            }
                            None => return Err(SplitError::UnterminatedQuote('"')),
                        },
                        Some(q) => w.push(q),
                        None => return Err(SplitError::UnterminatedQuote('"')),
                    }
                }
            }
            c => word.get_or_insert_with(String::new).push(c),
        }
    }
    if let Some(w) = word {
        words.push(w);
    }
    Ok(words)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn split(s: &str) -> Vec<String> {
        split_words(s).unwrap()
    }

    #[test]
    fn blanks_separate_words() {
        assert_eq!(
            split("  omega --player   random\t"),
            ["omega", "--player", "random"]
        );
        assert!(split("   ").is_empty());
    }

    #[test]
    fn quotes_and_backslashes() {
        assert_eq!(split(r#"a 'b c' "d e""#), ["a", "b c", "d e"]);
        assert_eq!(split(r#"x'y'"z"w"#), ["xyzw"]);
        assert_eq!(split(r"a\ b c\\d"), ["a b", r"c\d"]);
        assert_eq!(split(r#""say \"hi\" \n""#), [r#"say "hi" \n"#]);
        assert_eq!(split(r"'it'\''s'"), ["it's"]);
        assert_eq!(split("'' \"\""), ["", ""]);
        assert_eq!(split("'$HOME \\x'"), ["$HOME \\x"]);
    }

    #[test]
    fn errors() {
        assert_eq!(
            split_words("a 'b"),
            Err(SplitError::UnterminatedQuote('\''))
        );
        assert_eq!(
            split_words("a \"b\\\""),
            Err(SplitError::UnterminatedQuote('"'))
        );
        assert_eq!(split_words("a\\"), Err(SplitError::TrailingBackslash));
    }
}
