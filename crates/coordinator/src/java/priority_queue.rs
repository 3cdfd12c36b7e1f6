//! `java.util.PriorityQueue` with a comparator: the same array heap, the same `siftUp` and
//! `siftDown`, so that elements that compare equal come out in exactly Java's order.
//!
//! The comparator is passed to each operation rather than stored, because Apache's comparators
//! read mutable state (a process's load) that lives outside the queue. As in Java, an element's
//! key must not change while it is in the queue (Apache polls, updates, and re-adds).

use std::cmp::Ordering;

/// A binary min-heap laid out and maintained exactly like `java.util.PriorityQueue`.
#[derive(Clone, Debug, Default)]
pub struct JavaPriorityQueue<T> {
    queue: Vec<T>,
}

impl<T: Copy> JavaPriorityQueue<T> {
    /// `new PriorityQueue<>(comparator)` or `new PriorityQueue<>(initialCapacity, comparator)`
    /// (the capacity has no effect on order).
    pub fn new() -> Self {
        JavaPriorityQueue { queue: Vec::new() }
    }

    pub fn with_capacity(n: usize) -> Self {
        JavaPriorityQueue {
            queue: Vec::with_capacity(n),
        }
    }

    /// `new PriorityQueue<>(collection)` for a collection that is neither a `SortedSet` nor a
    /// `PriorityQueue`: the elements in the collection's iteration order, then `heapify()`.
    pub fn from_collection(items: Vec<T>, mut cmp: impl FnMut(&T, &T) -> Ordering) -> Self {
        let mut q = JavaPriorityQueue { queue: items };
        let n = q.queue.len();
        for i in (0..n / 2).rev() {
            let x = q.queue[i];
            q.sift_down(i, x, n, &mut cmp);
        }
        q
    }

    pub fn len(&self) -> usize {
        self.queue.len()
    }

    pub fn is_empty(&self) -> bool {
        self.queue.is_empty()
    }

    /// `peek()`.
    pub fn peek(&self) -> Option<T> {
        self.queue.first().copied()
    }

    /// `add(e)` / `offer(e)` (`addAll(c)` is `add` of each element in `c`'s order).
    pub fn offer(&mut self, x: T, mut cmp: impl FnMut(&T, &T) -> Ordering) {
        let mut k = self.queue.len();
        self.queue.push(x);
        while k > 0 {
            let parent = (k - 1) >> 1;
            let e = self.queue[parent];
            if cmp(&x, &e) != Ordering::Less {
                break;
            }
            self.queue[k] = e;
            k = parent;
        }
        self.queue[k] = x;
    }

    /// `poll()`: the head; the last element is sifted down from the root.
    pub fn poll(&mut self, mut cmp: impl FnMut(&T, &T) -> Ordering) -> Option<T> {
        let last = self.queue.pop()?;
        if self.queue.is_empty() {
            return Some(last);
        }
        let result = self.queue[0];
        let n = self.queue.len();
        self.sift_down(0, last, n, &mut cmp);
        Some(result)
    }

    fn sift_down(
        &mut self,
        mut k: usize,
        x: T,
        n: usize,
        cmp: &mut impl FnMut(&T, &T) -> Ordering,
    ) {
        let half = n >> 1;
        while k < half {
            let mut child = (k << 1) + 1;
            let mut c = self.queue[child];
            let right = child + 1;
            if right < n && cmp(&c, &self.queue[right]) == Ordering::Greater {
                child = right;
                c = self.queue[child];
            }
            if cmp(&x, &c) != Ordering::Greater {
                break;
            }
            self.queue[k] = c;
            k = child;
        }
        self.queue[k] = x;
    }

    /// The heap array (Java's `toArray()` / iteration order).
    pub fn as_slice(&self) -> &[T] {
        &self.queue
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_keys_follow_the_heap_not_insertion() {
        // Keys (value, id); the comparator looks at the value only.
        let cmp = |a: &(i32, u32), b: &(i32, u32)| a.0.cmp(&b.0);
        let mut q = JavaPriorityQueue::new();
        for (i, v) in [0, 0, 0, 0].into_iter().enumerate() {
            q.offer((v, i as u32), cmp);
        }
        // Java: [0,1,2,3] -> poll 0 moves 3 to the root, siftDown keeps it there.
        let order: Vec<u32> = std::iter::from_fn(|| q.poll(cmp)).map(|e| e.1).collect();
        assert_eq!(order, vec![0, 3, 2, 1]);
    }
}
