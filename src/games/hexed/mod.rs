//! Stub: being written.
