package io.specwatch.testkit;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ThreadLocalRandom;

/**
 * TCP ports for tests that bind a port later (a container published on a fixed host port so that it
 * keeps its address across a restart, a process started with {@code --health-port}) or that need
 * one where nothing listens.
 *
 * <p>The port comes from below the kernel's ephemeral range ({@code
 * /proc/sys/net/ipv4/ip_local_port_range}, 32768-60999 by default). {@code new ServerSocket(0)}
 * hands out a port inside it, and any outgoing connection made before the test binds the port again
 * can take it as its local port; then the bind fails ("Address already in use"). A broker stopped
 * for 18 s while its clients reconnect makes many such connections. CI's demo smoke most likely
 * lost a ClickHouse start that way on 2026-12-04 (scripts/lib.sh {@code port_taken}).
 */
public final class TestPorts {

  /** The lowest port handed out: above the well-known and most registered service ports. */
  static final int LOW = 20_000;

  private static final Path RANGE_FILE = Path.of("/proc/sys/net/ipv4/ip_local_port_range");
  private static final int ATTEMPTS = 200;

  private TestPorts() {}

  /**
   * A port that could be bound on all addresses just now (checked by binding it, then closed
   * again), outside the kernel's ephemeral range; random, so that concurrent test JVMs rarely pick
   * the same. Falls back to a port the kernel picks when the ephemeral range leaves no room below
   * it.
   */
  public static int freePort() {
    int high = ephemeralLow(); // exclusive
    if (high - LOW >= 1_000) {
      ThreadLocalRandom random = ThreadLocalRandom.current();
      for (int i = 0; i < ATTEMPTS; i++) {
        int port = random.nextInt(LOW, high);
        if (bindable(port)) {
          return port;
        }
      }
    }
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException("no free TCP port", e);
    }
  }

  /**
   * The low end of the kernel's ephemeral range; Linux's default when it cannot be read. Read as a
   * stream: {@code Files.readString} gets one byte of this /proc file (its size reads as 0).
   */
  static int ephemeralLow() {
    try (InputStream in = Files.newInputStream(RANGE_FILE)) {
      String range = new String(in.readAllBytes(), StandardCharsets.US_ASCII);
      return Integer.parseInt(range.trim().split("\\s+")[0]);
    } catch (IOException | NumberFormatException e) {
      return 32_768; // not Linux, or an unexpected format
    }
  }

  static boolean bindable(int port) {
    try (ServerSocket socket = new ServerSocket()) {
      socket.setReuseAddress(false);
      socket.bind(new InetSocketAddress(port));
      return true;
    } catch (IOException e) {
      return false;
    }
  }
}
