package io.specwatch.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import org.junit.jupiter.api.Test;

class TestPortsTest {

  @Test
  void freePortLiesBelowTheEphemeralRangeAndCanBeBound() throws Exception {
    int low = TestPorts.ephemeralLow();
    assertThat(low).as("this machine's ephemeral range leaves room below it").isGreaterThan(21_000);
    for (int i = 0; i < 20; i++) {
      int port = TestPorts.freePort();
      assertThat(port).isBetween(TestPorts.LOW, low - 1);
      try (ServerSocket socket = new ServerSocket()) {
        socket.bind(new InetSocketAddress(port));
        assertThat(socket.getLocalPort()).isEqualTo(port);
      }
    }
  }

  @Test
  void aPortThatAConnectionHoldsAsItsLocalPortIsNotBindable() throws Exception {
    try (ServerSocket listener = new ServerSocket(0, 5, InetAddress.getLoopbackAddress());
        Socket client = new Socket(InetAddress.getLoopbackAddress(), listener.getLocalPort());
        Socket accepted = listener.accept()) {
      int held = client.getLocalPort(); // nothing listens on it, yet a server cannot bind it
      assertThat(TestPorts.bindable(held)).isFalse();
      assertThat(TestPorts.bindable(listener.getLocalPort())).isFalse();
      assertThat(accepted.isConnected()).isTrue();
    }
  }
}
