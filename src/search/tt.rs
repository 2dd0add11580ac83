//! The transposition table: a fixed-size array of entries indexed by the low bits of the
//! Zobrist key, holding depth, bound type, value and best move.

/// How a stored value bounds the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    Exact,
    /// The true value is at least this (a beta cut-off).
    Lower,
    /// The true value is at most this (no move raised alpha).
    Upper,
}

#[derive(Clone, Copy, Debug)]
pub struct Entry<M> {
    pub key: u64,
    pub value: i32,
    pub depth: i16,
    pub bound: Bound,
    pub mv: M,
}

pub struct TranspositionTable<M> {
    entries: Vec<Option<Entry<M>>>,
    mask: usize,
}

impl<M: Copy> TranspositionTable<M> {
    /// A table of at most `megabytes` MiB (a power of two of entries, at least 1024). When
    /// the memory cannot be had, the table halves until it can, rather than aborting.
    pub fn new(megabytes: usize) -> TranspositionTable<M> {
        let entry = std::mem::size_of::<Option<Entry<M>>>();
        let wanted = (megabytes.clamp(1, 1 << 20) << 20) / entry;
        let mut len = 1024;
        while len * 2 <= wanted {
            len *= 2;
        }
        let mut entries = Vec::new();
        while len > 1024 && entries.try_reserve_exact(len).is_err() {
            len /= 2;
        }
        entries.resize(len, None);
        if len < wanted / 2 {
            log::warn!("transposition table reduced to {} MiB", (len * entry) >> 20);
        }
        TranspositionTable {
            entries,
            mask: len - 1,
        }
    }

    pub fn clear(&mut self) {
        self.entries.iter_mut().for_each(|e| *e = None);
    }

    pub fn probe(&self, key: u64) -> Option<Entry<M>> {
        self.entries[key as usize & self.mask].filter(|e| e.key == key)
    }

    /// Keeps the deeper of two results for the same position; another position's entry is
    /// always replaced (the newer search is the more relevant).
    pub fn store(&mut self, entry: Entry<M>) {
        let slot = &mut self.entries[entry.key as usize & self.mask];
        match slot {
            Some(old) if old.key == entry.key && old.depth > entry.depth + 1 => {}
            _ => *slot = Some(entry),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_and_finds_and_keeps_deeper_results() {
        let mut tt: TranspositionTable<u16> = TranspositionTable::new(1);
        let e = |key, depth, value| Entry {
            key,
            value,
            depth,
            bound: Bound::Exact,
            mv: 7,
        };
        assert!(tt.probe(42).is_none());
        tt.store(e(42, 5, 10));
        assert_eq!(tt.probe(42).unwrap().value, 10);
        tt.store(e(42, 2, 20));
        assert_eq!(
            tt.probe(42).unwrap().value,
            10,
            "shallower result must not replace"
        );
        tt.store(e(42, 6, 30));
        assert_eq!(tt.probe(42).unwrap().value, 30);
        let other = 42 + tt.entries.len() as u64;
        tt.store(e(other, 1, 40));
        assert!(tt.probe(42).is_none(), "same slot, other key replaces");
        assert_eq!(tt.probe(other).unwrap().mv, 7);
        tt.clear();
        assert!(tt.probe(other).is_none());
    }
}
