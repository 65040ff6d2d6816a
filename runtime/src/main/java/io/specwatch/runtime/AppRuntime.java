package io.specwatch.runtime;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.util.Optional;

/**
 * One app's operability: its meter registry, its {@link Readiness} and, unless the health port is
 * off, the {@link HealthServer} serving both. Close it last, after the app stopped.
 */
public final class AppRuntime implements AutoCloseable {

  private final PrometheusMeterRegistry registry;
  private final Readiness readiness = new Readiness();
  private final HealthServer server;

  private AppRuntime(String app, HealthOptions options) {
    options.validate();
    this.registry = Metrics.newRegistry(app);
    HealthServer s = null;
    if (options.enabled()) {
      try {
        s = HealthServer.start(options.bindAddress(), options.port(), readiness, registry);
      } catch (RuntimeException e) {
        registry.close();
        throw e;
      }
    }
    this.server = s;
  }

  /**
   * Creates the registry and starts the server when the options ask for one.
   *
   * @throws IllegalArgumentException on invalid options, IllegalStateException if it cannot bind
   */
  public static AppRuntime start(String app, HealthOptions options) {
    return new AppRuntime(app, options);
  }

  public PrometheusMeterRegistry registry() {
    return registry;
  }

  public Readiness readiness() {
    return readiness;
  }

  /** The health server's port, empty when the port is off. */
  public Optional<Integer> port() {
    return Optional.ofNullable(server).map(HealthServer::port);
  }

  @Override
  public void close() {
    try {
      if (server != null) {
        server.close();
      }
    } finally {
      registry.close();
    }
  }
}
