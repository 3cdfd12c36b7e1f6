//! A check run before the `kafka-protocol` crate decodes a response.
//!
//! The crate's decoders (0.18, its latest release) call `Vec::with_capacity(n)` with an array's
//! length prefix before reading a single element, so a few bytes from a broken or hostile peer
//! (11 bytes of ApiVersions response ask for about 18 GB) abort the process. Upstream has open
//! pull requests for this (tychedelia/kafka-protocol-rs #152, #161, #200), none released.
//!
//! So every response type we decode with the crate implements [`Guarded`]: its field layout,
//! copied from the crate's generated decoder for the versions this client negotiates. [`check`]
//! walks a response with that layout, the way the decoder will, and refuses it unless every
//! array's elements and every string and bytes value are really there. After that, each
//! preallocation of the decoder is for elements present in the message, so its memory is bounded
//! by a small multiple of the response's size (and a response is at most
//! [`super::conn::MAX_FRAME`] bytes).
//!
//! The walk follows the decoder, not the protocol's JSON schemas where the two differ: known
//! tagged fields (ApiVersions v3+) are read in place, unknown ones skipped by their size, and
//! trailing bytes are left alone. It is stricter than the decoder where strictness costs a real
//! broker nothing (a varint longer than 32 bits, a known tagged field whose size does not match
//! its contents).

use bytes::Bytes;
use kafka_protocol::messages::{
    ApiVersionsResponse, DeleteGroupsResponse, DeleteTopicsResponse, DescribeConfigsResponse,
    FindCoordinatorResponse, ListGroupsResponse, ListOffsetsResponse, MetadataResponse,
    OffsetCommitResponse, OffsetDeleteResponse, OffsetFetchResponse, SaslAuthenticateResponse,
    SaslHandshakeResponse,
};
use kafka_protocol::protocol::Decodable;

use super::wire::{DecodeError, DecodeResult, Reader};

/// The wire type of a field.
#[derive(Clone, Copy, Debug)]
pub enum Ty {
    /// intN, boolean, uuid: that many bytes.
    Fixed(usize),
    /// STRING / COMPACT_STRING, nullable or not.
    Str,
    /// BYTES / COMPACT_BYTES, nullable or not.
    Bytes,
    /// An array of structs with these fields.
    Structs(&'static [Field]),
    /// An array of int32.
    Int32s,
    /// An array of strings.
    Strs,
}

/// A field present in versions `from..=to`, in the body or (with `tag`) as a tagged field.
#[derive(Clone, Copy, Debug)]
pub struct Field {
    pub ty: Ty,
    pub from: i16,
    pub to: i16,
    pub tag: Option<u32>,
}

const fn f(ty: Ty, from: i16, to: i16) -> Field {
    Field {
        ty,
        from,
        to,
        tag: None,
    }
}

/// A field in every version.
const fn all(ty: Ty) -> Field {
    f(ty, 0, i16::MAX)
}

const fn tagged(tag: u32, ty: Ty, from: i16) -> Field {
    Field {
        ty,
        from,
        to: i16::MAX,
        tag: Some(tag),
    }
}

const I16: Ty = Ty::Fixed(2);
const I32: Ty = Ty::Fixed(4);
const I64: Ty = Ty::Fixed(8);
const I8: Ty = Ty::Fixed(1);
const BOOL: Ty = Ty::Fixed(1);
const UUID: Ty = Ty::Fixed(16);

/// A response message's layout.
#[derive(Debug)]
pub struct Schema {
    pub name: &'static str,
    /// The versions this client may decode (see `conn::client_max_version` and the minimum
    /// versions asked for in `client.rs`); others are refused.
    pub versions: (i16, i16),
    /// The first flexible version (compact encodings, tagged fields), `i16::MAX` for none.
    pub flexible_from: i16,
    pub fields: &'static [Field],
}

/// A response type decoded with the `kafka-protocol` crate, with its layout.
pub trait Guarded: Decodable {
    const SCHEMA: &'static Schema;
}

/// Check `body` against `R`'s layout, then decode it with the crate.
pub fn decode<R: Guarded>(body: Vec<u8>, version: i16) -> Result<R, String> {
    check(R::SCHEMA, &body, version).map_err(|e| e.to_string())?;
    let mut b = Bytes::from(body);
    R::decode(&mut b, version).map_err(|e| e.to_string())
}

/// Walk `body` as `schema` at `version`: an error unless every length prefix the decoder will
/// meet fits in the bytes that follow it.
pub fn check(schema: &Schema, body: &[u8], version: i16) -> DecodeResult<()> {
    let (lo, hi) = schema.versions;
    if !(lo..=hi).contains(&version) {
        return Err(DecodeError {
            what: format!(
                "{} v{version} is not a version this client reads",
                schema.name
            ),
            offset: 0,
        });
    }
    let w = Walk {
        version,
        flexible: version >= schema.flexible_from,
    };
    w.fields(&mut Reader::new(body), schema.fields)
}

struct Walk {
    version: i16,
    flexible: bool,
}

impl Walk {
    fn present(&self, f: &Field) -> bool {
        (f.from..=f.to).contains(&self.version)
    }

    fn fields(&self, r: &mut Reader, fields: &[Field]) -> DecodeResult<()> {
        for fl in fields.iter().filter(|x| x.tag.is_none() && self.present(x)) {
            self.value(r, fl.ty)?;
        }
        if !self.flexible {
            return Ok(());
        }
        let count = r.uvarint()?;
        for _ in 0..count {
            let tag = r.uvarint()?;
            let size = r.uvarint()? as usize;
            // The decoder reads a known tag in place, whatever its size says.
            match fields.iter().find(|x| x.tag == Some(tag)) {
                Some(known) => {
                    let start = r.position();
                    self.value(r, known.ty)?;
                    if r.position() - start != size {
                        return r.err(format!("tagged field {tag} is not {size} bytes"));
                    }
                }
                None => {
                    r.bytes(size)?;
                }
            }
        }
        Ok(())
    }

    /// A length prefix: int16 (strings) or int32 (bytes, arrays) before flexible versions,
    /// uvarint(N+1) after. None for null.
    fn length(&self, r: &mut Reader, int16: bool) -> DecodeResult<Option<usize>> {
        let n: i64 = if self.flexible {
            i64::from(r.uvarint()?) - 1
        } else if int16 {
            i64::from(r.i16()?)
        } else {
            i64::from(r.i32()?)
        };
        match n {
            -1 => Ok(None),
            n if n < 0 => r.err(format!("negative length {n}")),
            n => Ok(Some(n as usize)),
        }
    }

    fn value(&self, r: &mut Reader, ty: Ty) -> DecodeResult<()> {
        match ty {
            Ty::Fixed(n) => r.bytes(n).map(drop),
            Ty::Str => self.blob(r, true),
            Ty::Bytes => self.blob(r, false),
            Ty::Structs(fields) => self.array(r, |r| self.fields(r, fields)),
            Ty::Int32s => self.array(r, |r| r.bytes(4).map(drop)),
            Ty::Strs => self.array(r, |r| self.blob(r, true)),
        }
    }

    fn blob(&self, r: &mut Reader, int16: bool) -> DecodeResult<()> {
        match self.length(r, int16)? {
            None => Ok(()),
            Some(n) => r.bytes(n).map(drop),
        }
    }

    fn array(
        &self,
        r: &mut Reader,
        mut element: impl FnMut(&mut Reader) -> DecodeResult<()>,
    ) -> DecodeResult<()> {
        let Some(n) = self.length(r, false)? else {
            return Ok(());
        };
        if n > r.remaining() {
            return r.err(format!(
                "array of {n} elements cannot fit in {} bytes",
                r.remaining()
            ));
        }
        for _ in 0..n {
            let start = r.position();
            element(r)?;
            if r.position() == start {
                return r.err("empty array element");
            }
        }
        Ok(())
    }
}

// ------------------------------------------------------------------ layouts
//
// Field by field as in the crate's `src/messages/*_response.rs` decoders (kafka-protocol 0.18),
// which follow Apache Kafka's `clients/src/main/resources/common/message/*Response.json`.

const API_VERSION: &[Field] = &[all(I16), all(I16), all(I16)];
const FEATURE_KEY: &[Field] = &[
    f(Ty::Str, 3, i16::MAX),
    f(I16, 3, i16::MAX),
    f(I16, 3, i16::MAX),
];

impl Guarded for ApiVersionsResponse {
    const SCHEMA: &'static Schema = &Schema {
        name: "ApiVersions",
        versions: (0, 3),
        flexible_from: 3,
        fields: &[
            all(I16),                               // error_code
            all(Ty::Structs(API_VERSION)),          // api_keys
            f(I32, 1, i16::MAX),                    // throttle_time_ms
            tagged(0, Ty::Structs(FEATURE_KEY), 3), // supported_features
            tagged(1, I64, 3),                      // finalized_features_epoch
            tagged(2, Ty::Structs(FEATURE_KEY), 3), // finalized_features
            tagged(3, BOOL, 3),                     // zk_migration_ready
        ],
    };
}

const METADATA_BROKER: &[Field] = &[
    all(I32),                // node_id
    all(Ty::Str),            // host
    all(I32),                // port
    f(Ty::Str, 1, i16::MAX), // rack
];
const METADATA_PARTITION: &[Field] = &[
    all(I16),                   // error_code
    all(I32),                   // partition_index
    all(I32),                   // leader_id
    f(I32, 7, i16::MAX),        // leader_epoch
    all(Ty::Int32s),            // replica_nodes
    all(Ty::Int32s),            // isr_nodes
    f(Ty::Int32s, 5, i16::MAX), // offline_replicas
];
const METADATA_TOPIC: &[Field] = &[
    all(I16),                             // error_code
    all(Ty::Str),                         // name
    f(UUID, 10, i16::MAX),                // topic_id
    f(BOOL, 1, i16::MAX),                 // is_internal
    all(Ty::Structs(METADATA_PARTITION)), // partitions
    f(I32, 8, i16::MAX),                  // topic_authorized_operations
];

impl Guarded for MetadataResponse {
    const SCHEMA: &'static Schema = &Schema {
        name: "Metadata",
        versions: (1, 12),
        flexible_from: 9,
        fields: &[
            f(I32, 3, i16::MAX),               // throttle_time_ms
            all(Ty::Structs(METADATA_BROKER)), // brokers
            f(Ty::Str, 2, i16::MAX),           // cluster_id
            f(I32, 1, i16::MAX),               // controller_id
            all(Ty::Structs(METADATA_TOPIC)),  // topics
            f(I32, 8, 10),                     // cluster_authorized_operations
            f(I16, 13, i16::MAX),              // error_code
        ],
    };
}

const COORDINATOR: &[Field] = &[
    f(Ty::Str, 4, i16::MAX), // key
    f(I32, 4, i16::MAX),     // node_id
    f(Ty::Str, 4, i16::MAX), // host
    f(I32, 4, i16::MAX),     // port
    f(I16, 4, i16::MAX),     // error_code
    f(Ty::Str, 4, i16::MAX), // error_message
];

impl Guarded for FindCoordinatorResponse {
    const SCHEMA: &'static Schema = &Schema {
        name: "FindCoordinator",
        versions: (4, 4),
        flexible_from: 3,
        fields: &[
            f(I32, 1, i16::MAX),                      // throttle_time_ms
            f(I16, 0, 3),                             // error_code
            f(Ty::Str, 1, 3),                         // error_message
            f(I32, 0, 3),                             // node_id
            f(Ty::Str, 0, 3),                         // host
            f(I32, 0, 3),                             // port
            f(Ty::Structs(COORDINATOR), 4, i16::MAX), // coordinators
        ],
    };
}

const LISTED_GROUP: &[Field] = &[
    all(Ty::Str),            // group_id
    all(Ty::Str),            // protocol_type
    f(Ty::Str, 4, i16::MAX), // group_state
    f(Ty::Str, 5, i16::MAX), // group_type
];

impl Guarded for ListGroupsResponse {
    const SCHEMA: &'static Schema = &Schema {
        name: "ListGroups",
        versions: (5, 5),
        flexible_from: 3,
        fields: &[
            f(I32, 1, i16::MAX),            // throttle_time_ms
            all(I16),                       // error_code
            all(Ty::Structs(LISTED_GROUP)), // groups
        ],
    };
}

// v8+ only: the groups layout (v1-7's topics layout is never asked for).
const OFFSET_FETCH_PARTITION: &[Field] = &[
    all(I32),     // partition_index
    all(I64),     // committed_offset
    all(I32),     // committed_leader_epoch
    all(Ty::Str), // metadata
    all(I16),     // error_code
];
const OFFSET_FETCH_TOPIC: &[Field] = &[
    f(Ty::Str, 8, 9),                         // name
    f(UUID, 10, i16::MAX),                    // topic_id
    all(Ty::Structs(OFFSET_FETCH_PARTITION)), // partitions
];
const OFFSET_FETCH_GROUP: &[Field] = &[
    all(Ty::Str),                         // group_id
    all(Ty::Structs(OFFSET_FETCH_TOPIC)), // topics
    all(I16),                             // error_code
];

impl Guarded for OffsetFetchResponse {
    const SCHEMA: &'static Schema = &Schema {
        name: "OffsetFetch",
        versions: (8, 9),
        flexible_from: 6,
        fields: &[
            all(I32),                             // throttle_time_ms
            all(Ty::Structs(OFFSET_FETCH_GROUP)), // groups
        ],
    };
}

const LIST_OFFSETS_PARTITION: &[Field] = &[
    all(I32),            // partition_index
    all(I16),            // error_code
    all(I64),            // timestamp
    all(I64),            // offset
    f(I32, 4, i16::MAX), // leader_epoch
];
const LIST_OFFSETS_TOPIC: &[Field] = &[
    all(Ty::Str),                             // name
    all(Ty::Structs(LIST_OFFSETS_PARTITION)), // partitions
];

impl Guarded for ListOffsetsResponse {
    const SCHEMA: &'static Schema = &Schema {
        name: "ListOffsets",
        versions: (1, 9),
        flexible_from: 6,
        fields: &[
            f(I32, 2, i16::MAX),                  // throttle_time_ms
            all(Ty::Structs(LIST_OFFSETS_TOPIC)), // topics
        ],
    };
}

// The admin actions (reset-offsets, delete-offsets, delete).

const PARTITION_ERROR: &[Field] = &[
    all(I32), // partition_index
    all(I16), // error_code
];
const OFFSET_COMMIT_TOPIC: &[Field] = &[
    f(Ty::Str, 2, 9),                  // name
    f(UUID, 10, i16::MAX),             // topic_id
    all(Ty::Structs(PARTITION_ERROR)), // partitions
];

impl Guarded for OffsetCommitResponse {
    const SCHEMA: &'static Schema = &Schema {
        name: "OffsetCommit",
        versions: (2, 9),
        flexible_from: 8,
        fields: &[
            f(I32, 3, i16::MAX),                   // throttle_time_ms
            all(Ty::Structs(OFFSET_COMMIT_TOPIC)), // topics
        ],
    };
}

const OFFSET_DELETE_TOPIC: &[Field] = &[
    all(Ty::Str),                      // name
    all(Ty::Structs(PARTITION_ERROR)), // partitions
];

impl Guarded for OffsetDeleteResponse {
    const SCHEMA: &'static Schema = &Schema {
        name: "OffsetDelete",
        versions: (0, 0),
        flexible_from: i16::MAX,
        fields: &[
            all(I16),                              // error_code
            all(I32),                              // throttle_time_ms
            all(Ty::Structs(OFFSET_DELETE_TOPIC)), // topics
        ],
    };
}

const DELETABLE_GROUP: &[Field] = &[
    all(Ty::Str), // group_id
    all(I16),     // error_code
];

impl Guarded for DeleteGroupsResponse {
    const SCHEMA: &'static Schema = &Schema {
        name: "DeleteGroups",
        versions: (0, 2),
        flexible_from: 2,
        fields: &[
            all(I32),                          // throttle_time_ms
            all(Ty::Structs(DELETABLE_GROUP)), // results
        ],
    };
}

const DELETABLE_TOPIC: &[Field] = &[
    all(Ty::Str),            // name
    f(UUID, 6, i16::MAX),    // topic_id
    all(I16),                // error_code
    f(Ty::Str, 5, i16::MAX), // error_message
];

impl Guarded for DeleteTopicsResponse {
    const SCHEMA: &'static Schema = &Schema {
        name: "DeleteTopics",
        versions: (1, 5),
        flexible_from: 4,
        fields: &[
            all(I32),                          // throttle_time_ms
            all(Ty::Structs(DELETABLE_TOPIC)), // responses
        ],
    };
}

// DescribeConfigs v1-v4 (group configs and the coordinator's group.streams.* settings).

const CONFIG_SYNONYM: &[Field] = &[
    all(Ty::Str), // name
    all(Ty::Str), // value
    all(I8),      // source
];
const CONFIG_ENTRY: &[Field] = &[
    all(Ty::Str),                     // name
    all(Ty::Str),                     // value
    all(BOOL),                        // read_only
    all(I8),                          // config_source
    all(BOOL),                        // is_sensitive
    all(Ty::Structs(CONFIG_SYNONYM)), // synonyms
    f(I8, 3, i16::MAX),               // config_type
    f(Ty::Str, 3, i16::MAX),          // documentation
];
const CONFIG_RESULT: &[Field] = &[
    all(I16),                       // error_code
    all(Ty::Str),                   // error_message
    all(I8),                        // resource_type
    all(Ty::Str),                   // resource_name
    all(Ty::Structs(CONFIG_ENTRY)), // configs
];

impl Guarded for DescribeConfigsResponse {
    const SCHEMA: &'static Schema = &Schema {
        name: "DescribeConfigs",
        versions: (1, 4),
        flexible_from: 4,
        fields: &[
            all(I32),                        // throttle_time_ms
            all(Ty::Structs(CONFIG_RESULT)), // results
        ],
    };
}

impl Guarded for SaslHandshakeResponse {
    const SCHEMA: &'static Schema = &Schema {
        name: "SaslHandshake",
        versions: (0, 1),
        flexible_from: i16::MAX,
        fields: &[
            all(I16),      // error_code
            all(Ty::Strs), // mechanisms
        ],
    };
}

impl Guarded for SaslAuthenticateResponse {
    const SCHEMA: &'static Schema = &Schema {
        name: "SaslAuthenticate",
        versions: (0, 2),
        flexible_from: 2,
        fields: &[
            all(I16),            // error_code
            all(Ty::Str),        // error_message
            all(Ty::Bytes),      // auth_bytes
            f(I64, 1, i16::MAX), // session_lifetime_ms
        ],
    };
}

#[cfg(test)]
mod tests;
