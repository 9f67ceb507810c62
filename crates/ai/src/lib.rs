//! PLACEHOLDER: the search crate is issue 5.
