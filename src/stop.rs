//! A stop signal that another thread raises to cut a search short: the protocol's input
//! thread raises it when a GUI interrupts a `genmove` (`# interrupt`) or when a command line
//! arrives during `analyze` or pondering. Searches look at it when they look at the clock.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// Cheap to clone: every clone is the same signal.
#[derive(Clone, Debug, Default)]
pub struct Stop(Arc<AtomicBool>);

impl Stop {
    pub fn new() -> Stop {
        Stop::default()
    }

    /// Asks every search that holds this signal to stop as soon as it can.
    pub fn raise(&self) {
        self.0.store(true, Ordering::SeqCst);
    }

    /// Lowers the signal before a new search starts.
    pub fn lower(&self) {
        self.0.store(false, Ordering::SeqCst);
    }

    #[inline]
    pub fn is_raised(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
}
