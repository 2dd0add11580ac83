//! The transposition table: a fixed-size array of entries indexed by the low bits of the
//! Zobrist key, holding depth, bound type, value and best move.
//!
//! Several threads share one table (lazy SMP), without locks: an entry is two 64-bit words,
//! the data and the key xor the data (Hyatt & Mann, "A lockless transposition-table
//! implementation for parallel search", 2002). A read that catches another thread's write
//! half done sees a key that does not match, and misses.

use crate::moves::PackedMove;
use std::marker::PhantomData;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// How a stored value bounds the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    Exact,
    /// The true value is at least this (a beta cut-off).
    Lower,
    /// The true value is at most this (no move raised alpha).
    Upper,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Entry<M> {
    pub key: u64,
    pub value: i32,
    /// Plies searched below the entry's position; stored in 8 bits (the search's depths
    /// stay within -8..=127).
    pub depth: i16,
    pub bound: Bound,
    pub mv: M,
}

/// The data word: value in bits 0..32, move 32..48, depth 48..56, bound 56..58, and bit 58
/// set in every stored entry (an all-zero slot is empty).
const STORED: u64 = 1 << 58;

impl<M: PackedMove> Entry<M> {
    fn data(&self) -> u64 {
        let bound = match self.bound {
            Bound::Exact => 0,
            Bound::Lower => 1,
            Bound::Upper => 2,
        };
        let depth = self.depth.clamp(i8::MIN as i16, i8::MAX as i16) as i8 as u8;
        self.value as u32 as u64
            | (self.mv.pack() as u64) << 32
            | (depth as u64) << 48
            | bound << 56
            | STORED
    }

    fn from_data(key: u64, data: u64) -> Entry<M> {
        Entry {
            key,
            value: data as u32 as i32,
            mv: M::unpack((data >> 32) as u16),
            depth: (data >> 48) as u8 as i8 as i16,
            bound: match (data >> 56) & 3 {
                0 => Bound::Exact,
                1 => Bound::Lower,
                _ => Bound::Upper,
            },
        }
    }
}

/// One slot: the key xor the data, and the data.
type Slot = [AtomicU64; 2];

pub struct TranspositionTable<M> {
    slots: Vec<Slot>,
    mask: usize,
    _move: PhantomData<M>,
}

impl<M: PackedMove> TranspositionTable<M> {
    /// A table of at most `megabytes` MiB (a power of two of entries, at least 1024). When
    /// the memory cannot be had, the table halves until it can, rather than aborting.
    pub fn new(megabytes: usize) -> TranspositionTable<M> {
        let entry = std::mem::size_of::<Slot>();
        let wanted = (megabytes.clamp(1, 1 << 20) << 20) / entry;
        let mut len = 1024;
        while len * 2 <= wanted {
            len *= 2;
        }
        let mut slots = Vec::new();
        while len > 1024 && slots.try_reserve_exact(len).is_err() {
            len /= 2;
        }
        // The capacity reserved above (none if every reservation failed and the table fell
        // back to its smallest size, which `resize_with` then allocates unadvised).
        crate::huge_pages::advise(slots.spare_capacity_mut());
        slots.resize_with(len, Slot::default);
        if len < wanted / 2 {
            log::warn!("transposition table reduced to {} MiB", (len * entry) >> 20);
        }
        TranspositionTable {
            slots,
            mask: len - 1,
            _move: PhantomData,
        }
    }

    /// Empties every slot. Contract: no search uses the table meanwhile.
    pub fn clear(&self) {
        for slot in &self.slots {
            slot[0].store(0, Relaxed);
            slot[1].store(0, Relaxed);
        }
    }

    pub fn probe(&self, key: u64) -> Option<Entry<M>> {
        let slot = &self.slots[key as usize & self.mask];
        let (check, data) = (slot[0].load(Relaxed), slot[1].load(Relaxed));
        (data & STORED != 0 && check ^ data == key).then(|| Entry::from_data(key, data))
    }

    /// Keeps the deeper of two results for the same position; another position's entry is
    /// always replaced (the newer search is the more relevant).
    pub fn store(&self, entry: Entry<M>) {
        let slot = &self.slots[entry.key as usize & self.mask];
        if let Some(old) = self.probe(entry.key) {
            if old.depth > entry.depth + 1 {
                return;
            }
        }
        let data = entry.data();
        slot[0].store(entry.key ^ data, Relaxed);
        slot[1].store(data, Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn e(key: u64, depth: i16, value: i32) -> Entry<u16> {
        Entry {
            key,
            value,
            depth,
            bound: Bound::Exact,
            mv: 7,
        }
    }

    #[test]
    fn stores_and_finds_and_keeps_deeper_results() {
        let tt: TranspositionTable<u16> = TranspositionTable::new(1);
        assert!(tt.probe(42).is_none());
        assert!(
            tt.probe(0).is_none(),
            "an empty slot is no entry, even for key 0"
        );
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
        let other = 42 + tt.slots.len() as u64;
        tt.store(e(other, 1, 40));
        assert!(tt.probe(42).is_none(), "same slot, other key replaces");
        assert_eq!(tt.probe(other).unwrap().mv, 7);
        tt.clear();
        assert!(tt.probe(other).is_none());
    }

    #[test]
    fn entries_round_trip_through_the_packed_words() {
        let tt: TranspositionTable<u16> = TranspositionTable::new(1);
        for (i, bound) in [Bound::Exact, Bound::Lower, Bound::Upper]
            .into_iter()
            .enumerate()
        {
            for (value, depth, mv) in [(-(1 << 28), -4, 0), (1 << 28, 127, u16::MAX), (-1, 0, 5)] {
                let entry = Entry {
                    key: 0xdead_beef_0000 + i as u64,
                    value,
                    depth,
                    bound,
                    mv,
                };
                tt.store(entry);
                assert_eq!(tt.probe(entry.key), Some(entry));
                tt.clear();
            }
        }
    }

    #[test]
    fn a_torn_entry_reads_as_a_miss() {
        let tt: TranspositionTable<u16> = TranspositionTable::new(1);
        tt.store(e(42, 5, 10));
        let data = e(99, 1, 1).data();
        tt.slots[42 & tt.mask][1].store(data, Relaxed);
        assert!(tt.probe(42).is_none());
    }
}
