// A kernel's work area: everything from the heap base up, laid out afresh by each computation (kernels never call
// the runtime's allocator). A wasm memory never grows back, so kernels size their work areas to a bounded piece
// of the input (a row, a chunk of samples), never to the whole input.

/** First byte of the work area (the heap base, 16-aligned). */
export function workBase(): usize {
  return (__heap_base + 15) & ~(<usize>15);
}

/** Makes the memory reach at least `end` bytes; false when it cannot grow (or `end` is past 4 GiB). */
export function reserve(end: u64): bool {
  if (end > 0xffff0000) return false;
  const have = (<u64>memory.size()) << 16;
  if (end <= have) return true;
  const pages = <i32>((end - have + 0xffff) >> 16);
  return memory.grow(pages) >= 0;
}
