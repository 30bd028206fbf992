/* A table of this project read over HTTP, in the browser: the container of docs/table-format.md.
 *
 * openTable(url) reads the header and the chunk map with Range requests and checks them as the Python
 * reader does (the header's JSON against its digest and its fields, the file's size against the server's,
 * the chunk map against its digest and the file's bounds); a chunk is read when first asked for, checked
 * against its SHA-256 (Web Crypto: a secure context, https or loopback), inflated (DecompressionStream:
 * zlib streams) to exactly one chunk, and kept in one cache of every table, bounded in bytes. The HDF5
 * metadata the header digests is never read here: nothing of it is needed to find a chunk.
 * Anything not as written throws a TableError: "table URL is damaged: why".
 */

const MAGIC = "neutreeko-solver table container 2\n";
const FIELDS = {size: "number", header_bytes: "number", body_sha256: "string", metadata_sha256: "string",
                dataset: "string", dtype: "object", shape: "object", chunk_items: "number", map_offset: "number",
                map_sha256: "string", attributes: "object"};
const FIRST_READ = 4096;
const MAX_JSON = 1 << 20;
const ENTRY = 56;  // offset, size, fence (uint64 each), SHA-256

export class TableError extends Error {}

/** The cache of inflated chunks, by "url#chunk", least recently used dropped first beyond ``limit`` bytes. */
const cache = {limit: 64 << 20, bytes: 0, chunks: new Map()};

export function setCacheLimit(bytes) {
  cache.limit = bytes;
  shrink();
}

function shrink() {
  for (const [key, chunk] of cache.chunks) {
    if (cache.bytes <= cache.limit) break;
    cache.chunks.delete(key);
    cache.bytes -= chunk.byteLength;
  }
}

const hex = buffer => Array.from(new Uint8Array(buffer), byte => byte.toString(16).padStart(2, "0")).join("");
const sha256 = async bytes => new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));

/** The bytes ``first`` .. ``first + length - 1`` of ``url`` and the file's size, by one Range request. */
async function readRange(url, first, length) {
  let response;
  try {
    response = await fetch(url, {headers: {Range: `bytes=${first}-${first + length - 1}`}});
  } catch (error) {
    throw new TableError(`cannot read table ${url}: ${error.message}`);
  }
  if (response.status === 404) throw new TableError(`no table at ${url}`);
  if (response.status !== 206) {
    throw new TableError(`cannot read table ${url}: the server answered ${response.status}, not 206 ` +
                         "(the host must answer Range requests)");
  }
  const range = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(response.headers.get("Content-Range") || "");
  const body = new Uint8Array(await response.arrayBuffer());
  if (!range || Number(range[1]) !== first || Number(range[2]) - first + 1 !== body.length
      || body.length > length || body.length < Math.min(length, Number(range[3]) - first)) {
    throw new TableError(`cannot read table ${url}: the server did not send the bytes asked for`);
  }
  return {body, size: Number(range[3])};
}

/** The uint64 at ``at`` of ``view`` as a Number (every offset and size of a table is below 2^53). */
const uint64 = (view, at) => view.getUint32(at, true) + view.getUint32(at + 4, true) * 2 ** 32;

/** The table at ``url``, its header and chunk map checked: {url, header, attributes, count, chunk(n)}. */
export async function openTable(url) {
  const damaged = why => new TableError(`table ${url} is damaged: ${why}`);
  const {body: start, size} = await readRange(url, 0, FIRST_READ);
  const text = new TextDecoder("latin1").decode(start);
  if (!text.startsWith(MAGIC)) throw new TableError(`${url} is not a neutreeko-solver table`);
  const line = /^header (\d{1,7}) sha256 ([0-9a-f]{64})\n/.exec(text.slice(MAGIC.length));
  if (!line || Number(line[1]) > MAX_JSON) throw damaged("its header is not as written");
  const first = MAGIC.length + line[0].length, length = Number(line[1]);
  let head = start;
  if (first + length + 1 > head.length) head = (await readRange(url, 0, first + length + 1)).body;
  const json = head.subarray(first, first + length);
  if (hex(await sha256(json)) !== line[2] || head[first + length] !== 10) throw damaged("its header is not as written");
  let header;
  try {
    header = JSON.parse(new TextDecoder().decode(json));
  } catch (error) {
    throw damaged("its header is not as written");
  }
  if (typeof header !== "object" || header === null || Object.keys(header).join() !== Object.keys(FIELDS).join()
      || Object.entries(FIELDS).some(([name, kind]) => typeof header[name] !== kind || header[name] === null)) {
    throw damaged("its header is not as written");
  }
  if (size !== header.size) throw damaged(`it has ${size} bytes, not ${header.size}`);
  const {shape, chunk_items: items, map_offset: mapOffset, header_bytes: headerBytes} = header;
  const itemBytes = itemSize(header.dtype);
  if (shape.length !== 1 || !Number.isSafeInteger(shape[0]) || shape[0] < 0 || !(items >= 1) || !itemBytes
      || headerBytes & (headerBytes - 1) || headerBytes < first + length + 1 || headerBytes > 4 * MAX_JSON
      || mapOffset < headerBytes) {
    throw damaged("its header is not as written");
  }
  const count = Math.ceil(shape[0] / items);
  if (mapOffset + count * ENTRY > size) throw damaged("its chunk map lies beyond its end");
  const map = count ? (await readRange(url, mapOffset, count * ENTRY)).body : new Uint8Array(0);
  if (hex(await sha256(map)) !== header.map_sha256) throw damaged("its chunk map does not match its digest");
  const view = new DataView(map.buffer, map.byteOffset, map.byteLength);
  const chunkBytes = items * itemBytes;
  const entries = Array.from({length: count}, (_, n) => ({
    offset: uint64(view, n * ENTRY), size: uint64(view, n * ENTRY + 8), fence: n * ENTRY + 16,
    sha256: map.subarray(n * ENTRY + 24, n * ENTRY + 56)}));
  if (entries.some(entry => entry.offset < headerBytes || entry.offset + entry.size > size
                   || entry.size > chunkBytes + chunkBytes / 1000 + 64)) {
    throw damaged("its chunk map points outside the file");
  }
  const reading = new Map();  // chunks being read: one request each, however many ask

  /** Chunk ``n``'s bytes, verified and inflated (the last cut to the data's length). */
  async function chunk(n) {
    const key = `${url}#${n}`;
    const held = cache.chunks.get(key);
    if (held) {
      cache.chunks.delete(key);
      cache.chunks.set(key, held);
      return held;
    }
    if (!reading.has(key)) {
      reading.set(key, readChunk(n).finally(() => reading.delete(key)));
    }
    return reading.get(key);
  }

  async function readChunk(n) {
    const entry = entries[n];
    const {body} = await readRange(url, entry.offset, entry.size);
    if (body.length !== entry.size) throw damaged(`chunk ${n} is cut short`);
    const digest = await sha256(body);
    if (digest.some((byte, at) => byte !== entry.sha256[at])) throw damaged(`chunk ${n} does not match its digest`);
    let raw;
    try {
      const stream = new Blob([body]).stream().pipeThrough(new DecompressionStream("deflate"));
      raw = new Uint8Array(await new Response(stream).arrayBuffer());
    } catch (error) {
      throw damaged(`chunk ${n} does not decompress`);
    }
    if (raw.length !== chunkBytes) throw damaged(`chunk ${n} does not decompress to ${chunkBytes} bytes`);
    const chunk = raw.subarray(0, Math.max(0, Math.min(items, shape[0] - n * items)) * itemBytes);
    cache.chunks.set(`${url}#${n}`, chunk);
    cache.bytes += chunk.byteLength;
    shrink();
    return chunk;
  }

  /** The fence (first key) of chunk ``n``, as a BigInt. */
  const fence = n => view.getBigUint64(entries[n].fence, true);

  /** The ``itemBytes`` bytes of item ``i`` (a Uint8Array view). */
  async function item(i) {
    if (!(i >= 0 && i < shape[0])) throw new RangeError(`item ${i} is not in 0 .. ${shape[0] - 1}`);
    const n = Math.floor(i / items), at = (i - n * items) * itemBytes;
    return (await chunk(n)).subarray(at, at + itemBytes);
  }

  return {url, header, attributes: header.attributes, length: shape[0], items, itemBytes, count, chunk, fence,
          item};
}

/** The bytes of one item of a header's ``dtype`` (numpy's descr: a scalar or packed records), or 0. */
function itemSize(dtype) {
  const scalar = name => (typeof name === "string" && /^[<>|][uif]\d$/.test(name) ? Number(name.slice(2)) : 0);
  if (dtype.length === 1 && Array.isArray(dtype[0]) && dtype[0][0] === "") return scalar(dtype[0][1]);
  if (!dtype.every(field => Array.isArray(field) && field.length === 2)) return 0;
  const sizes = dtype.map(field => scalar(field[1]));
  return sizes.every(Boolean) ? sizes.reduce((a, b) => a + b, 0) : 0;
}
