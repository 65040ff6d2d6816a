package io.specwatch.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ThreadLocalRandom;

/**
 * TCP ports for tests that bind a port later (a container published on a fixed host port so that it
 * keeps its address across a restart, a process started with {@code --metrics-port}) or that need
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
    int[] range = ephemeralRange();
    int high = Math.min(range[0], 65_536); // exclusive
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

  /** The kernel's ephemeral range {low, high}; Linux's default when it cannot be read. */
  static int[] ephemeralRange() {
    try {
      String[] parts = Files.readString(RANGE_FILE).trim().split("\\s+");
      if (parts.length == 2) {
        return new int[] {Integer.parseInt(parts[0]), Integer.parseInt(parts[1])};
      }
    } catch (IOException | NumberFormatException e) {
      // not Linux, or an unexpected format: the default below
    }
    return new int[] {32_768, 60_999};
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
