//! `Object.hashCode()` of a class that does not override it: HotSpot's identity hash code.
//!
//! HotSpot (JDK 8 and later, default `-XX:hashCode=5`) draws an object's identity hash the
//! first time it is asked for, from Marsaglia's xor-shift generator with state local to the
//! asking thread, and keeps the low 31 bits (0 becomes `0xBAD`). The state is four `u32`s; a
//! new thread starts with `X = os::random()` and fixed `Y`, `Z`, `W`.
//!
//! So identity hashes, and the `HashSet` orders built on them, are not a function of the data:
//! they depend on how many identity hashes the thread drew before. Kafka 4.1's
//! `StickyTaskAssignor` keeps such objects (its `Member`) in `HashSet`s and breaks ties by
//! their order; [`IdentityHashes`] is the generator it draws from, and
//! [`IdentityHashes::from_samples`] recovers a live JVM thread's state from a few hashes that
//! thread drew, so that a test can continue the very sequence the JVM will use.

/// The `markWord::hash_mask` of a 64-bit VM: identity hashes have 31 bits.
const HASH_MASK: u32 = 0x7FFF_FFFF;
/// What HotSpot stores when the masked value is 0 (0 means "no hash yet").
const ZERO_HASH: u32 = 0xBAD;

/// One thread's identity-hash generator state (`Thread::_hashStateX`..`W`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct IdentityHashes {
    x: u32,
    y: u32,
    z: u32,
    w: u32,
}

impl IdentityHashes {
    /// A thread's state as `Thread::Thread()` initializes it, with `x` its `os::random()` draw.
    pub const fn new_thread(x: u32) -> Self {
        IdentityHashes {
            x,
            y: 842_502_087,
            z: 0x8767,
            w: 273_326_509,
        }
    }

    /// A fixed state for callers that cannot know the real one (a broker's coordinator thread
    /// has drawn an unknowable number of hashes before): a new thread whose `os::random()` draw
    /// is that generator's first value from HotSpot's initial seed, 16807 × 1234567 mod
    /// (2^31 − 1). Any state is as plausible as any other; this one is merely fixed.
    pub const fn fixed() -> Self {
        Self::new_thread(1_422_014_746)
    }

    /// `get_next_hash`: the identity hash of the next object to be hashed.
    pub fn next_hash(&mut self) -> i32 {
        let mut t = self.x;
        t ^= t << 11;
        self.x = self.y;
        self.y = self.z;
        self.z = self.w;
        let mut v = self.w;
        v = (v ^ (v >> 19)) ^ (t ^ (t >> 8));
        self.w = v;
        match v & HASH_MASK {
            0 => ZERO_HASH as i32,
            h => h as i32,
        }
    }

    /// The state that continues a thread's sequence after it drew `samples` (consecutive
    /// identity hashes, e.g. `System.identityHashCode(new Object())` in a row). Needs at least 7
    /// samples: the first 4 are the state up to the top bits the mask dropped; the k-th one's
    /// top bit only shows once it is `X` again, in draw k + 4 (the 4th's also in draw 5).
    /// `None` if no state (or more than one) fits.
    pub fn from_samples(samples: &[i32]) -> Option<Self> {
        if samples.len() < 7 {
            return None;
        }
        // Full 32-bit values that a 31-bit sample may come from.
        let preimages = |s: i32| -> Vec<u32> {
            let s = s as u32;
            let mut out = vec![s, s | !HASH_MASK];
            if s == ZERO_HASH {
                out.extend([0, !HASH_MASK]);
            }
            out
        };
        let mut found = None;
        for &a in &preimages(samples[0]) {
            for &b in &preimages(samples[1]) {
                for &c in &preimages(samples[2]) {
                    for &d in &preimages(samples[3]) {
                        let mut g = IdentityHashes {
                            x: a,
                            y: b,
                            z: c,
                            w: d,
                        };
                        if samples[4..].iter().all(|&s| g.next_hash() == s) {
                            if found.is_some() {
                                return None;
                            }
                            found = Some(g);
                        }
                    }
                }
            }
        }
        found
    }
}

impl Default for IdentityHashes {
    fn default() -> Self {
        Self::fixed()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_thread_sequence_is_recovered_from_eight_samples() {
        let mut jvm = IdentityHashes::new_thread(123_456_789);
        let drawn: Vec<i32> = (0..12).map(|_| jvm.next_hash()).collect();
        assert!(drawn.iter().all(|&h| h > 0));
        let mut ours = IdentityHashes::from_samples(&drawn[..8]).expect("one state fits");
        assert_eq!(
            (0..4).map(|_| ours.next_hash()).collect::<Vec<_>>(),
            drawn[8..]
        );
    }

    /// Drawn by a JDK 17 thread: `System.identityHashCode(new Object())` eight times.
    #[test]
    fn a_jvm_sequence() {
        let drawn = [
            2_060_468_723,
            622_488_023,
            1_933_863_327,
            112_810_359,
            2_124_308_362,
            146_589_023,
            1_482_968_390,
            349_885_916,
        ];
        let mut g = IdentityHashes::from_samples(&drawn[..7]).expect("one state fits");
        assert_eq!(g.next_hash(), drawn[7]);
    }

    #[test]
    fn too_few_or_inconsistent_samples() {
        // Six samples leave the third value's top bit open.
        let mut jvm = IdentityHashes::fixed();
        let drawn: Vec<i32> = (0..6).map(|_| jvm.next_hash()).collect();
        assert_eq!(IdentityHashes::from_samples(&drawn), None);
        assert_eq!(IdentityHashes::from_samples(&[1, 2, 3, 4, 5, 6, 7]), None);
    }
}
