package io.specwatch.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class StreamedBodyTest {

  private static byte[] bytes(int n) {
    byte[] b = new byte[n];
    for (int i = 0; i < n; i++) {
      b[i] = (byte) (i * 7);
    }
    return b;
  }

  @Test
  void holdsBackTheLastPublishedByteUntilFinished() throws Exception {
    StreamedBody body = new StreamedBody();
    byte[] data = bytes(10);
    body.publish(data, 4);
    byte[] out = new byte[16];
    assertThat(body.read(out, 0, 16)).isEqualTo(3);
    body.publish(data, 10);
    assertThat(body.read(out, 3, 13)).isEqualTo(6);
    body.finish();
    assertThat(body.read(out, 9, 7)).isEqualTo(1);
    assertThat(body.read(out, 10, 6)).isEqualTo(-1);
    assertThat(java.util.Arrays.copyOf(out, 10)).isEqualTo(data);
  }

  @Test
  void aReaderWaitsForRowsAndSeesEveryByteOnceAcrossGrownArrays() throws Exception {
    StreamedBody body = new StreamedBody();
    CompletableFuture<byte[]> read =
        CompletableFuture.supplyAsync(
            () -> {
              try {
                ByteArrayOutputStream out = new ByteArrayOutputStream();
                byte[] chunk = new byte[5];
                int n;
                while ((n = body.read(chunk, 0, chunk.length)) >= 0) {
                  out.write(chunk, 0, n);
                }
                return out.toByteArray();
              } catch (IOException e) {
                throw new IllegalStateException(e);
              }
            });
    byte[] all = bytes(1000);
    for (int size = 0; size <= 1000; size += 37) {
      // a writer that grows its buffer publishes a new array holding the same prefix
      body.publish(java.util.Arrays.copyOf(all, Math.max(size, 1) * 2), size);
      Thread.sleep(1);
    }
    body.publish(all, 1000);
    Thread.sleep(20);
    assertThat(read).isNotDone(); // the last byte is held back
    body.finish();
    assertThat(read.get(10, TimeUnit.SECONDS)).isEqualTo(all);
  }

  @Test
  void abortFailsTheReaderWithoutSendingTheHeldBackByte() throws Exception {
    StreamedBody body = new StreamedBody();
    body.publish(bytes(8), 8);
    byte[] out = new byte[8];
    assertThat(body.read(out, 0, 8)).isEqualTo(7);
    CompletableFuture<Integer> blocked =
        CompletableFuture.supplyAsync(
            () -> {
              try {
                return body.read(out, 7, 1);
              } catch (IOException e) {
                throw new IllegalStateException(e);
              }
            });
    Thread.sleep(20);
    assertThat(blocked).isNotDone();
    body.abort();
    assertThatThrownBy(() -> blocked.get(10, TimeUnit.SECONDS))
        .hasRootCauseInstanceOf(IOException.class)
        .hasRootCauseMessage("insert body aborted");
    body.publish(bytes(20), 20); // ignored after the end
    assertThatThrownBy(() -> body.read(out, 0, 1)).isInstanceOf(IOException.class);
    assertThat(body.published()).isEqualTo(8);
  }

  @Test
  void refusesToUnpublishBytes() {
    StreamedBody body = new StreamedBody();
    body.publish(bytes(8), 8);
    assertThatThrownBy(() -> body.publish(bytes(8), 4))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("shrank");
  }
}
