// A read that many wake-ups ask for: at most one runs at a time, and wake-ups that arrive while it
// runs make exactly one more run after it, so a burst of 200 NOTIFYs a second costs a stream a
// couple of reads, not 200, and the last change is always read.
export function coalesced(read: () => Promise<void>): () => Promise<void> {
  let running: Promise<void> | null = null;
  let again = false;
  const run = async (): Promise<void> => {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      try {
        do {
          again = false;
          await read();
        } while (again);
      } finally {
        running = null;
      }
    })();
    return running;
  };
  return run;
}
