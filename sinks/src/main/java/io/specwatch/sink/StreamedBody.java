package io.specwatch.sink;

import java.io.IOException;
import java.io.InputStream;

/**
 * The body of an insert that is uploaded while its batch is still filling: the encode thread
 * {@linkplain #publish publishes} the buffer's bytes after every chunk of whole rows, the insert's
 * HTTP upload reads them as they come, and {@link #finish()} (the batch was handed off) lets the
 * upload reach its end.
 *
 * <p>Until {@link #finish()} the last published byte is held back, so a body cut short (the sink
 * killed, {@link #abort()}, a broken connection) always ends inside a row and the server rejects
 * it: ClickHouse 18.16 inserts a chunked body that ends without its terminating chunk as if it were
 * complete, and a cut that fell on a row boundary would insert part of a batch.
 *
 * <p>One writer thread ({@link #publish}, {@link #finish}, {@link #abort}) and one reader thread.
 * The published bytes of the array are never changed by the writer (rows are only appended; a
 * half-written row is truncated before it is published; the buffer is cleared only after the upload
 * ended).
 */
final class StreamedBody extends InputStream {

  private byte[] buf = new byte[0];
  private int published;
  private int pos;
  private boolean finished;
  private boolean aborted;

  /**
   * The first {@code size} bytes of {@code array} are whole rows of the batch. Ignored once the
   * body is finished or aborted.
   */
  synchronized void publish(byte[] array, int size) {
    if (finished || aborted) {
      return;
    }
    if (size < published) {
      throw new IllegalStateException("published bytes shrank from " + published + " to " + size);
    }
    if (size > published) {
      buf = array;
      published = size;
      notifyAll();
    }
  }

  /** Everything is published: the upload may send the last byte and end. */
  synchronized void finish() {
    finished = true;
    notifyAll();
  }

  /** The upload fails (its reader gets an {@link IOException}); the server rejects the body. */
  synchronized void abort() {
    aborted = true;
    notifyAll();
  }

  synchronized boolean isFinished() {
    return finished;
  }

  /** Bytes published so far. */
  synchronized int published() {
    return published;
  }

  @Override
  public int read() throws IOException {
    byte[] one = new byte[1];
    int n = read(one, 0, 1);
    return n < 0 ? -1 : one[0] & 0xFF;
  }

  @Override
  public synchronized int read(byte[] b, int off, int len) throws IOException {
    if (len == 0) {
      return 0;
    }
    while (true) {
      if (aborted) {
        throw new IOException("insert body aborted");
      }
      int readable = (finished ? published : published - 1) - pos;
      if (readable > 0) {
        int n = Math.min(len, readable);
        System.arraycopy(buf, pos, b, off, n);
        pos += n;
        return n;
      }
      if (finished) {
        return -1;
      }
      try {
        wait();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException("interrupted while waiting for rows", e);
      }
    }
  }
}
