package io.specwatch.runtime;

import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.FileDescriptorMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.util.List;

/** The apps' meter registry: Prometheus text format, with JVM and process metrics bound. */
public final class Metrics {

  private Metrics() {}

  /**
   * A new Prometheus registry tagged {@code app=<app>} with JVM memory, GC, threads, class loading,
   * processor, uptime and file-descriptor metrics. The caller closes it (which also stops the GC
   * binder's listeners when the registry is closed).
   */
  public static PrometheusMeterRegistry newRegistry(String app) {
    PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    registry.config().commonTags(List.of(Tag.of("app", app)));
    new ClassLoaderMetrics().bindTo(registry);
    new JvmMemoryMetrics().bindTo(registry);
    @SuppressWarnings("resource") // closed with the registry: it unregisters on registry close
    JvmGcMetrics gc = new JvmGcMetrics();
    gc.bindTo(registry);
    new JvmThreadMetrics().bindTo(registry);
    new ProcessorMetrics().bindTo(registry);
    new UptimeMetrics().bindTo(registry);
    new FileDescriptorMetrics().bindTo(registry);
    return registry;
  }
}
