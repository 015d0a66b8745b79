//! The threads the package's parallel work runs on: pools of its own, one
//! per thread count, never rayon's global pool.
//!
//! Why: Python programs fork (multiprocessing, Spark's and Gunicorn's
//! workers). A child inherits the pool's state but not its threads, so work
//! sent to a pool made before the fork waits forever. The pools are kept
//! per process id: a child makes its own on first use and leaves its
//! parent's alone (leaked, never dropped: their threads are not there to
//! join).

use std::sync::{Arc, Mutex};

use rayon::{ThreadPool, ThreadPoolBuilder};

struct Pool {
    pid: u32,
    threads: usize,
    pool: Arc<ThreadPool>,
}

static POOLS: Mutex<Vec<Pool>> = Mutex::new(Vec::new());

/// The most pools of different sizes kept at once.
const KEPT: usize = 4;

/// Runs `work` on a pool of `threads` threads (`None`: `RAYON_NUM_THREADS`,
/// else one per core this process may use); `par_iter` inside it, the
/// library's included, uses that pool.
pub fn run<R: Send>(threads: Option<usize>, work: impl FnOnce() -> R + Send) -> Result<R, String> {
    let threads = threads.unwrap_or_else(default_threads);
    let pool = pool(threads)?;
    Ok(pool.install(work))
}

fn pool(threads: usize) -> Result<Arc<ThreadPool>, String> {
    let pid = std::process::id();
    let mut pools = POOLS
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    if pools.iter().any(|kept| kept.pid != pid) {
        // A forked child: its parent's pools have no threads here.
        for stale in pools.drain(..) {
            std::mem::forget(stale.pool);
        }
    }
    if let Some(kept) = pools.iter().find(|kept| kept.threads == threads) {
        return Ok(Arc::clone(&kept.pool));
    }
    let pool = ThreadPoolBuilder::new()
        .num_threads(threads)
        .thread_name(|index| format!("partkit-{index}"))
        .build()
        .map(Arc::new)
        .map_err(|error| format!("cannot start {threads} threads: {error}"))?;
    if pools.len() == KEPT {
        pools.remove(0);
    }
    pools.push(Pool {
        pid,
        threads,
        pool: Arc::clone(&pool),
    });
    Ok(pool)
}

fn default_threads() -> usize {
    std::env::var("RAYON_NUM_THREADS")
        .ok()
        .and_then(|value| value.parse::<usize>().ok())
        .filter(|&n| n > 0)
        .or_else(|| std::thread::available_parallelism().ok().map(|n| n.get()))
        .unwrap_or(1)
}
