//! A move packed into a number, so that the tables several threads share (the tree search's
//! tree, the alpha-beta's transposition table) can hold it in an atomic word.

/// A move as a shared table stores it.
pub trait PackedMove: Copy + Eq + Default + std::fmt::Debug + Send + Sync {
    /// At most 16 bits: the transposition table keeps no more.
    fn pack(self) -> u16;
    /// Contract: the inverse of `pack` on the values `pack` returns.
    fn unpack(bits: u16) -> Self;
}

/// A cell index (a stone game's move).
impl PackedMove for u16 {
    fn pack(self) -> u16 {
        self
    }
    fn unpack(bits: u16) -> Self {
        bits
    }
}
