//! Quick pairing: who plays whom in one wave of one pool.
//!
//! The players are sorted by rating and neighbours are paired, from the lowest up, when their
//! gap is within the range the longer-waiting of the two accepts: `range_start` points at
//! first, `range_step` more for every `range_step_every` waited, and any gap once
//! `range_unlimited_after` has passed. A player left alone waits for the next wave (a
//! widening range, or a newcomer near them). An account is in a pool once (the table's key),
//! so nobody is paired with themself.
use std::time::Duration;

/// A player waiting in a pool.
#[derive(Clone, Debug, PartialEq)]
pub struct Waiting {
    pub account: String,
    pub rating: f64,
    /// How long it has waited, in milliseconds.
    pub waited_ms: i64,
}

/// How the rating range widens.
#[derive(Clone, Debug, PartialEq)]
pub struct Range {
    pub start: f64,
    pub step: f64,
    pub step_every: Duration,
    pub unlimited_after: Duration,
}

impl Range {
    /// The largest gap a player who waited `waited_ms` accepts.
    pub fn accepts(&self, waited_ms: i64) -> f64 {
        let waited = waited_ms.max(0) as u128;
        if waited >= self.unlimited_after.as_millis() {
            return f64::INFINITY;
        }
        let steps = waited / self.step_every.as_millis().max(1);
        self.start + self.step * steps as f64
    }
}

/// The pairs of one wave (indices into `waiting`).
pub fn pairs(waiting: &[Waiting], range: &Range) -> Vec<(usize, usize)> {
    let mut order: Vec<usize> = (0..waiting.len()).collect();
    order.sort_by(|a, b| {
        waiting[*a]
            .rating
            .total_cmp(&waiting[*b].rating)
            .then_with(|| waiting[*a].account.cmp(&waiting[*b].account))
    });
    let mut out = Vec::new();
    let mut i = 0;
    while i + 1 < order.len() {
        let (a, b) = (&waiting[order[i]], &waiting[order[i + 1]]);
        let gap = b.rating - a.rating;
        let allowed = range.accepts(a.waited_ms.max(b.waited_ms));
        if a.account != b.account && gap <= allowed {
            // Pair i with i+1 unless i+1 is closer to i+2 and i can still wait (its range is
            // not unlimited yet): a greedy pass that keeps the closest neighbours together.
            let better_next = order
                .get(i + 2)
                .is_some_and(|c| waiting[*c].rating - b.rating < gap);
            if better_next && allowed.is_finite() {
                i += 1;
                continue;
            }
            out.push((order[i], order[i + 1]));
            i += 2;
        } else {
            i += 1;
        }
    }
    out
}

/// The tables of `seats` players of one wave of a pool of more than two (indices into
/// `waiting`): sorted by rating, each run of `seats` neighbours whose spread (best minus
/// worst) is within the range the longest-waiting of them accepts sits at one table, from the
/// lowest up; a run too spread out moves one player up. A player left out waits for the next
/// wave (a widening range, or newcomers near them).
pub fn tables(waiting: &[Waiting], range: &Range, seats: usize) -> Vec<Vec<usize>> {
    let mut order: Vec<usize> = (0..waiting.len()).collect();
    order.sort_by(|a, b| {
        waiting[*a]
            .rating
            .total_cmp(&waiting[*b].rating)
            .then_with(|| waiting[*a].account.cmp(&waiting[*b].account))
    });
    let mut out = Vec::new();
    if seats < 2 {
        return out;
    }
    let mut i = 0;
    while i + seats <= order.len() {
        let run = &order[i..i + seats];
        let spread = waiting[run[seats - 1]].rating - waiting[run[0]].rating;
        let waited = run.iter().map(|p| waiting[*p].waited_ms).max().unwrap_or(0);
        let mut accounts: Vec<&str> = run.iter().map(|p| waiting[*p].account.as_str()).collect();
        accounts.sort_unstable();
        accounts.dedup();
        if accounts.len() == seats && spread <= range.accepts(waited) {
            out.push(run.to_vec());
            i += seats;
        } else {
            i += 1;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn range() -> Range {
        Range {
            start: 100.0,
            step: 50.0,
            step_every: Duration::from_secs(5),
            unlimited_after: Duration::from_secs(45),
        }
    }

    fn w(account: &str, rating: f64, waited_ms: i64) -> Waiting {
        Waiting {
            account: account.into(),
            rating,
            waited_ms,
        }
    }

    #[test]
    fn the_range_widens_with_waiting() {
        let r = range();
        assert_eq!(r.accepts(0), 100.0);
        assert_eq!(r.accepts(4_999), 100.0);
        assert_eq!(r.accepts(5_000), 150.0);
        assert_eq!(r.accepts(44_000), 500.0);
        assert!(r.accepts(45_000).is_infinite());
    }

    #[test]
    fn neighbours_of_close_rating_are_paired() {
        let waiting = [
            w("a", 1500.0, 0),
            w("b", 2100.0, 0),
            w("c", 1540.0, 0),
            w("d", 2050.0, 0),
            w("e", 1800.0, 0),
        ];
        let p = pairs(&waiting, &range());
        assert_eq!(p, [(0, 2), (3, 1)]);
    }

    #[test]
    fn far_apart_players_wait_until_their_range_covers_the_gap() {
        let r = range();
        assert!(pairs(&[w("a", 1500.0, 0), w("b", 1800.0, 0)], &r).is_empty());
        // A gap of 300 is accepted after 20 s (100 + 4 × 50).
        assert!(pairs(&[w("a", 1500.0, 0), w("b", 1800.0, 19_999)], &r).is_empty());
        assert_eq!(
            pairs(&[w("a", 1500.0, 0), w("b", 1800.0, 20_000)], &r),
            [(0, 1)]
        );
        assert_eq!(
            pairs(&[w("a", 1000.0, 0), w("b", 2900.0, 60_000)], &r),
            [(0, 1)]
        );
    }

    #[test]
    fn the_closer_neighbour_wins() {
        // b is 90 from a but 10 from c: b-c, and a waits.
        let p = pairs(
            &[w("a", 1500.0, 0), w("b", 1590.0, 0), w("c", 1600.0, 0)],
            &range(),
        );
        assert_eq!(p, [(1, 2)]);
    }

    #[test]
    fn never_oneself() {
        assert!(pairs(&[w("a", 1500.0, 0), w("a", 1500.0, 0)], &range()).is_empty());
    }

    #[test]
    fn tables_of_near_ratings() {
        let r = range();
        // Twelve: six near 1200 and six near 2000, mixed.
        let mut waiting = Vec::new();
        for i in 0..6 {
            waiting.push(w(&format!("low{i}"), 1200.0 + 10.0 * i as f64, 0));
            waiting.push(w(&format!("high{i}"), 2000.0 + 10.0 * i as f64, 0));
        }
        let t = tables(&waiting, &r, 6);
        assert_eq!(t.len(), 2);
        for table in &t {
            let low: Vec<bool> = table
                .iter()
                .map(|i| waiting[*i].account.starts_with("low"))
                .collect();
            assert!(low.iter().all(|l| *l == low[0]), "{table:?}");
        }
    }

    #[test]
    fn a_table_waits_for_its_range() {
        let r = range();
        let three = |waited| [w("a", 1500.0, 0), w("b", 1600.0, 0), w("c", 1750.0, waited)];
        // A spread of 250 is accepted after 15 s by the longest-waiting.
        assert!(tables(&three(14_999), &r, 3).is_empty());
        assert_eq!(tables(&three(15_000), &r, 3), [vec![0, 1, 2]]);
        // Too few for a table.
        assert!(tables(&three(60_000)[..2], &r, 3).is_empty());
        // A spread-out low end moves up: b, c, d sit together, a waits.
        let four = [
            w("a", 1000.0, 0),
            w("b", 1500.0, 0),
            w("c", 1520.0, 0),
            w("d", 1540.0, 0),
        ];
        assert_eq!(tables(&four, &r, 3), [vec![1, 2, 3]]);
    }
}
