package io.specwatch.runtime;

import picocli.CommandLine.Option;

/**
 * Where an app serves {@link HealthServer}, as a picocli mixin: {@code --health-port} (0 =
 * ephemeral, -1 = off; off by default on the command line so the demo and tests never collide; a
 * container sets {@code SPECWATCH_HEALTH_PORT=8080}) and {@code --health-bind}.
 */
public final class HealthOptions {

  /** The port a container should use (set {@code SPECWATCH_HEALTH_PORT} to it there). */
  public static final int CONTAINER_PORT = 8080;

  public static final int OFF = -1;

  @Option(
      names = "--health-port",
      defaultValue = "${env:SPECWATCH_HEALTH_PORT:--1}",
      description =
          "Port of /health/live, /health/ready and /metrics; 0 = ephemeral, -1 = off"
              + " (env SPECWATCH_HEALTH_PORT; containers: 8080). Default: ${DEFAULT-VALUE}")
  int port = OFF;

  @Option(
      names = "--health-bind",
      defaultValue = "${env:SPECWATCH_HEALTH_BIND:-0.0.0.0}",
      description =
          "Bind address of the health port (env SPECWATCH_HEALTH_BIND)."
              + " Default: ${DEFAULT-VALUE}")
  String bindAddress = "0.0.0.0";

  public HealthOptions() {}

  /** Options for code and tests. */
  public HealthOptions(String bindAddress, int port) {
    this.bindAddress = bindAddress;
    this.port = port;
  }

  public int port() {
    return port;
  }

  public String bindAddress() {
    return bindAddress;
  }

  /**
   * Checks the values.
   *
   * @throws IllegalArgumentException naming the setting
   */
  public void validate() {
    if (port < OFF || port > 65_535) {
      throw new IllegalArgumentException(
          "--health-port (SPECWATCH_HEALTH_PORT) must be -1 (off), 0 (ephemeral) or a port up to"
              + " 65535, got: "
              + port);
    }
    if (bindAddress == null || bindAddress.isBlank()) {
      throw new IllegalArgumentException("--health-bind (SPECWATCH_HEALTH_BIND) must not be blank");
    }
  }

  public boolean enabled() {
    return port != OFF;
  }
}
