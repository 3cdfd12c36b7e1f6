use super::*;

use super::build::{batch, BatchSpec};

type B = BatchSpec<'static>;

fn all(_: &[u8]) -> bool {
    true
}

#[test]
fn every_codec_reads_back_the_records() {
    for codec in 0..4 {
        let bytes = batch(&B {
            base: 100,
            attributes: codec,
            producer: -1,
            records: vec![(Some(b"k1"), Some(b"v1")), (Some(b"k2"), None)],
        });
        let got = read_batches(&bytes, &[], &all).unwrap();
        assert_eq!(got.batches.len(), 1, "codec {codec}");
        let b = &got.batches[0];
        assert_eq!((b.base_offset, b.last_offset), (100, 101));
        assert_eq!(b.records[0].key.as_deref(), Some(&b"k1"[..]));
        assert_eq!(b.records[1].value, None, "a tombstone");
        assert_eq!(b.records[1].offset, 101);
        assert_eq!(b.records[1].timestamp_ms, 1_010);
        assert_eq!(got.next_offset, Some(102));
        assert_eq!(got.codecs.values().sum::<u64>(), 1);
    }
}

#[test]
fn control_and_aborted_batches_are_skipped_and_a_cut_batch_ends_the_read() {
    let mut bytes = batch(&B {
        base: 0,
        attributes: TRANSACTIONAL,
        producer: 7,
        records: vec![(Some(b"aborted"), Some(b"x"))],
    });
    bytes.extend(batch(&B {
        base: 1,
        attributes: TRANSACTIONAL | CONTROL,
        producer: 7,
        records: vec![(Some(b"\0\0\0\0"), Some(b"marker"))],
    }));
    bytes.extend(batch(&B {
        base: 2,
        attributes: TRANSACTIONAL,
        producer: 7,
        records: vec![(Some(b"committed"), Some(b"y"))],
    }));
    let cut = batch(&B {
        base: 3,
        attributes: 0,
        producer: -1,
        records: vec![(Some(b"next"), Some(b"z"))],
    });
    bytes.extend(&cut[..cut.len() - 3]);
    let aborted = [AbortedTransaction {
        producer_id: 7,
        first_offset: 0,
    }];
    let got = read_batches(&bytes, &aborted, &all).unwrap();
    let keys: Vec<&[u8]> = got
        .batches
        .iter()
        .flat_map(|b| b.records.iter().filter_map(|r| r.key.as_deref()))
        .collect();
    assert_eq!(keys, [&b"committed"[..]]);
    assert_eq!((got.control_batches, got.aborted_batches), (1, 1));
    assert_eq!(got.next_offset, Some(3), "the cut batch is fetched again");
}

#[test]
fn the_filter_drops_records_and_garbage_is_an_error_not_a_panic() {
    let bytes = batch(&B {
        base: 5,
        attributes: 1,
        producer: -1,
        records: vec![(Some(b"mine"), Some(b"1")), (Some(b"other"), Some(b"2"))],
    });
    let got = read_batches(&bytes, &[], &|k| k == b"mine").unwrap();
    assert_eq!(got.batches[0].records.len(), 1);
    for n in 0..bytes.len() {
        let mut broken = bytes.clone();
        broken[n] ^= 0xa5;
        let _ = read_batches(&broken, &[], &all);
        let _ = read_batches(&bytes[..n], &[], &all);
    }
    let mut lying = bytes.clone();
    lying[8..12].copy_from_slice(&10i32.to_be_bytes());
    assert!(read_batches(&lying, &[], &all).is_err());
}

#[test]
fn offsets_compaction_removed_are_found() {
    let one = |base: i64| {
        batch(&B {
            base,
            attributes: 0,
            producer: -1,
            records: vec![(Some(b"k"), Some(b"v")), (Some(b"k2"), Some(b"v"))],
        })
    };
    // Batches that follow on: nothing missing.
    let mut bytes = one(10);
    bytes.extend(one(12));
    let got = read_batches(&bytes, &[], &all).unwrap();
    assert_eq!((got.first_offset, got.missing_through), (Some(10), None));
    // A whole batch gone between two.
    let mut bytes = one(10);
    bytes.extend(one(20));
    let got = read_batches(&bytes, &[], &all).unwrap();
    assert_eq!(got.missing_through, Some(19));
    // A cleaned batch keeps its first and last offsets: 2 records over offsets 30..=34.
    let mut cleaned = one(30);
    cleaned[23..27].copy_from_slice(&4i32.to_be_bytes());
    let mut bytes = one(28);
    bytes.extend(cleaned);
    let got = read_batches(&bytes, &[], &all).unwrap();
    assert_eq!(got.missing_through, Some(34));
    assert_eq!(got.next_offset, Some(35));
}
