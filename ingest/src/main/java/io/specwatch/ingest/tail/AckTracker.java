package io.specwatch.ingest.tail;

import java.util.ArrayDeque;

/**
 * In-flight lines of one file generation, in file order. A line is done when Kafka acknowledged its
 * record (or it had none). The committed position is the end of the longest done prefix: the
 * highest contiguous acknowledged offset, never past a line whose record is still in flight.
 * Thread-safe: lines are added by the reader, acks arrive on the producer's I/O thread.
 */
final class AckTracker {

  /** One line in flight. */
  static final class Entry {
    private final long endOffset;
    private final long lineNumber;
    private boolean done;

    private Entry(long endOffset, long lineNumber) {
      this.endOffset = endOffset;
      this.lineNumber = lineNumber;
    }
  }

  private final ArrayDeque<Entry> inFlight = new ArrayDeque<>();
  private final Runnable releaseOne;
  private long committedOffset;
  private long committedLines;

  /**
   * @param offset committed start position
   * @param lineNumber lines before offset
   * @param releaseOne called once per line leaving the tracker (frees its in-flight slot)
   */
  AckTracker(long offset, long lineNumber, Runnable releaseOne) {
    this.committedOffset = offset;
    this.committedLines = lineNumber;
    this.releaseOne = releaseOne;
  }

  /** Adds the line ending at endOffset (exclusive), the lineNumber-th of the file. */
  synchronized Entry add(long endOffset, long lineNumber) {
    Entry e = new Entry(endOffset, lineNumber);
    inFlight.addLast(e);
    return e;
  }

  /** Marks a line done and advances the committed position over the done prefix. */
  void done(Entry e) {
    int released = 0;
    synchronized (this) {
      e.done = true;
      while (!inFlight.isEmpty() && inFlight.peekFirst().done) {
        Entry head = inFlight.pollFirst();
        committedOffset = head.endOffset;
        committedLines = head.lineNumber;
        released++;
      }
    }
    for (int i = 0; i < released; i++) {
      releaseOne.run();
    }
  }

  /**
   * The committed position as one pair, read under one lock: reading the offset and the line count
   * in two calls could interleave with {@link #done} and pair a line's end offset with the next
   * line's number, so a resume would number every later line one too high.
   */
  synchronized Committed committed() {
    return new Committed(committedOffset, committedLines);
  }

  /** End offset of the done prefix and the number of lines before it. */
  record Committed(long offset, long lines) {}

  synchronized boolean idle() {
    return inFlight.isEmpty();
  }

  synchronized int inFlight() {
    return inFlight.size();
  }
}
