//! Text as a person is shown it: the characters that act on a terminal or a page instead of
//! being read (Unicode's controls, category Cc: U+0000 to U+001F, U+007F to U+009F; and the
//! bidirectional formatting characters, Bidi_Control: U+061C, U+200E, U+200F, U+202A to
//! U+202E, U+2066 to U+2069) written as escapes, `\u{1b}`, so that nothing a ledger holds (a
//! model's name, a wave's notes, a publication's title) can clear a screen, ring a bell or
//! reorder what is printed beside it to spoof a name (issue 23; issue 34 for the bidi
//! overrides; issue 32, #2 for Markdown). JSON keeps every character as it is: it escapes the
//! controls itself, and its readers are programs.

use std::borrow::Cow;

/// Whether `c` acts rather than reads: a control, or a bidirectional formatting character.
pub(crate) fn is_active(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{061C}' | '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}'
        )
}

/// `text` with every active character (`is_active`) but those `keep` allows written as
/// `\u{…}`; borrowed when there is none.
pub fn shown_keeping(text: &str, keep: impl Fn(char) -> bool) -> Cow<'_, str> {
    let escaped = |c: char| is_active(c) && !keep(c);
    if !text.chars().any(escaped) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if escaped(c) {
            out.extend(c.escape_unicode());
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// `text` with every active character written as `\u{…}`.
pub fn shown(text: &str) -> Cow<'_, str> {
    shown_keeping(text, |_| false)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn controls_and_bidi_overrides_are_escaped_and_nothing_else() {
        assert_eq!(shown("a\u{1b}[2J\u{7}b"), "a\\u{1b}[2J\\u{7}b");
        assert_eq!(shown("x\u{202e}gpj.exe"), "x\\u{202e}gpj.exe");
        for c in [
            '\u{202a}', '\u{202b}', '\u{202c}', '\u{202d}', '\u{2066}', '\u{2069}',
        ] {
            assert!(is_active(c), "{c:?}");
        }
        assert_eq!(shown("\u{85}"), "\\u{85}");
        assert!(matches!(shown("Grok 4 — é, 名前"), Cow::Borrowed(_)));
        assert_eq!(shown_keeping("a\nb\tc", |c| c == '\n'), "a\nb\\u{9}c");
    }
}
