//! Unit tests of `src/fs/mod.rs`, which includes this file by `#[path]`: they reach
//! private items, so they cannot be an integration test.

use super::*;

/// A reader that hands back one byte per call.
struct OneByte<'a>(&'a [u8]);

impl Read for OneByte<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match (self.0.split_first(), buf.first_mut()) {
            (Some((&b, rest)), Some(slot)) => {
                *slot = b;
                self.0 = rest;
                Ok(1)
            }
            _ => Ok(0),
        }
    }
}

#[test]
fn a_read_never_takes_more_than_its_limit_whatever_the_pieces() {
    let data = vec![7u8; 100_000];
    assert_eq!(read_bounded(&mut OneByte(&data), 0, 1 << 20).unwrap(), data);
    let read = read_bounded(&mut OneByte(&data), u64::MAX, 11).unwrap();
    assert_eq!(read.len(), 11);
    let read = read_bounded(&mut &data[..], 5, 100_001).unwrap();
    assert_eq!(read.len(), 100_000);
    assert!(read_bounded(&mut &b""[..], 0, 10).unwrap().is_empty());
}
