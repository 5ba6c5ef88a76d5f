/**
 * Size the libuv thread pool before anything uses it (it is created on first use and never
 * resized). RSA key generation runs there (`crypto.generateKeyPair`), as do file system calls
 * and `dns.lookup`; the pool's default of 4 threads is kept free for those, and each concurrent
 * key generation gets a thread of its own on top. An explicit `UV_THREADPOOL_SIZE` wins.
 *
 * Imported first by `main.ts`: ES modules evaluate in import order, so this runs before any
 * module touches the pool.
 */
import { availableParallelism } from 'node:os';

// The same default as config.ts (`DKIM_KEYGEN_CONCURRENCY`), which validates the variable.
const configured = Number(process.env.DKIM_KEYGEN_CONCURRENCY);
const concurrency =
  Number.isInteger(configured) && configured > 0 ? configured : Math.max(1, availableParallelism() - 1);
process.env.UV_THREADPOOL_SIZE ||= String(Math.min(4 + concurrency, 1024));
