package io.specwatch.ingest.ship;

import io.specwatch.ingest.normalise.RawFieldsPolicy;
import io.specwatch.ingest.normalise.SourceContext;
import io.specwatch.ingest.parse.ParseResult;
import io.specwatch.ingest.parse.ParserRegistry;
import io.specwatch.ingest.parse.sglang.SglangDecodeBatch;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Lines handed from the reading thread of {@link LogFileShipper} to its sending thread; a parsing
 * thread fills in their parse results and event ids first. Also the hand-over itself: a batch goes
 * on the (bounded, ordered) send queue, then on the parse queue.
 */
final class LineBatch {
  /**
   * Lines per hand-over between threads: 1 024 since 2026-12-02 (256 before; each hand-over wakes
   * threads, and the wake-ups were ~4 % of the sending thread).
   */
  static final int BATCH_LINES = 1024;

  static final int BATCH_BYTES = 1 << 20;

  static final LineBatch END = new LineBatch(null);
  final List<SourceLine> lines;
  ParseResult[] parsed;
  String[] ids; // event ids of the parsed lines (null for the others)
  SglangEventParts[] sglang; // SGLang lines' events written ahead (null: none in the batch)
  Throwable failure; // of parsing or hashing, rethrown on the sending thread
  long bytes;
  private final CountDownLatch prepared = new CountDownLatch(1);

  LineBatch() {
    this(new ArrayList<>(BATCH_LINES));
  }

  private LineBatch(List<SourceLine> lines) {
    this.lines = lines;
  }

  void add(SourceLine line) {
    lines.add(line);
    bytes += line.bytes().length;
  }

  /**
   * Parses the lines and hashes the ids of the parsed ones (a parsing thread); with a writer, also
   * writes the events of the SGLang lines ahead.
   */
  void prepare(
      ParserRegistry parsers,
      SourceContext source,
      SglangEventWriter writer,
      RawFieldsPolicy rawFields) {
    try {
      ParseResult[] p = new ParseResult[lines.size()];
      String[] i = new String[p.length];
      SglangEventParts[] s = null;
      for (int k = 0; k < p.length; k++) {
        SourceLine line = lines.get(k);
        p[k] = LineIngestor.parse(parsers, line);
        if (p[k] instanceof ParseResult.Parsed parsedLine) {
          i[k] = LineIngestor.eventId(source, line);
          LineIngestor.prepareEncoding(parsedLine, rawFields);
          if (writer != null && parsedLine.line() instanceof SglangDecodeBatch b) {
            if (s == null) {
              s = new SglangEventParts[p.length];
            }
            s[k] = writer.write(b, i[k], line);
          }
        }
      }
      parsed = p;
      ids = i;
      sglang = s;
    } catch (Throwable t) {
      failure = t;
    } finally {
      prepared.countDown(); // publishes the fields above to the sending thread
    }
  }

  /** Waits until a parsing thread has prepared this batch; throws what that thread caught. */
  void awaitPrepared() throws InterruptedException {
    prepared.await();
    if (failure instanceof RuntimeException re) {
      throw re;
    }
    if (failure instanceof Error e) {
      throw e;
    }
    if (failure != null) {
      throw new IllegalStateException(failure);
    }
  }

  /**
   * Puts a batch on the send queue, then (not the end mark) on the parse queue; gives up (the
   * worker's failure is reported) if the worker died.
   */
  static void hand(
      BlockingQueue<LineBatch> queue,
      BlockingQueue<LineBatch> toParse,
      LineBatch b,
      AtomicReference<Throwable> failed) {
    if (b != END && b.lines.isEmpty()) {
      return;
    }
    try {
      while (failed.get() == null) {
        if (queue.offer(b, 100, TimeUnit.MILLISECONDS)) {
          if (b != END) {
            toParse.add(b);
          }
          return;
        }
      }
      throw new ShipAborted();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ShipException("interrupted while shipping", e);
    }
  }

  /** Stops the reading thread once the sending thread has failed (its failure is thrown). */
  static final class ShipAborted extends RuntimeException {
    ShipAborted() {
      super("sending thread failed", null, false, false);
    }
  }
}
