package io.specwatch.charttests;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import com.marcnuri.helm.Helm;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The chart under test: renders {@code helm/specwatch} with the real Helm library (no cluster). */
final class Chart {
  static final String RELEASE = "sw";
  static final String NAMESPACE = "telemetry";
  static final String FULLNAME = RELEASE + "-specwatch";

  private static final ObjectMapper YAML = new YAMLMapper();

  private Chart() {}

  static Path dir() {
    String configured = System.getProperty("specwatch.chart.dir");
    Path dir = configured != null ? Path.of(configured) : Path.of("..", "helm", "specwatch");
    return dir.toAbsolutePath().normalize();
  }

  /** The chart's appVersion, read from Chart.yaml. */
  static String appVersion() {
    try {
      return YAML.readTree(dir().resolve("Chart.yaml").toFile()).path("appVersion").asText();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Renders the chart with the given values (YAML text; "" for the defaults). */
  static Manifests render(String valuesYaml) {
    return Manifests.parse(renderText(valuesYaml));
  }

  static String renderText(String valuesYaml) {
    return renderText(dir(), valuesYaml);
  }

  /**
   * Renders a copy of the chart whose Helm hook annotations ({@code helm.sh/hook*}) are renamed to
   * {@code test.specwatch.io/hook*}. {@code helm template} as run by helm-java leaves hooks out of
   * its output, so this is how the tests see the hook objects (and their renamed annotations).
   */
  static Manifests renderWithHooksVisible(String valuesYaml) {
    try {
      Path copy = Files.createTempDirectory("specwatch-chart");
      try (var files = Files.walk(dir())) {
        for (Path source : (Iterable<Path>) files::iterator) {
          Path target = copy.resolve(dir().relativize(source).toString());
          if (Files.isDirectory(source)) {
            Files.createDirectories(target);
          } else {
            Files.writeString(
                target,
                Files.readString(source).replace("\"helm.sh/hook", "\"" + HOOK_PREFIX + "hook"));
          }
        }
      }
      try {
        return Manifests.parse(renderText(copy, valuesYaml));
      } finally {
        try (var files = Files.walk(copy)) {
          files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static final String HOOK_PREFIX = "test.specwatch.io/";

  private static String renderText(Path chart, String valuesYaml) {
    try {
      Path values = Files.createTempFile("specwatch-values", ".yaml");
      try {
        Files.writeString(values, valuesYaml);
        return new Helm(chart)
            .template()
            .withName(RELEASE)
            .withNamespace(NAMESPACE)
            .withValuesFile(values)
            .call();
      } finally {
        Files.deleteIfExists(values);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Splits a multi-document YAML stream into its non-empty documents. */
  static List<JsonNode> documents(String yaml) {
    List<JsonNode> docs = new ArrayList<>();
    try (var parser = new YAMLFactory().createParser(yaml)) {
      var it = YAML.readValues(parser, JsonNode.class);
      while (it.hasNext()) {
        JsonNode doc = it.next();
        if (doc != null && !doc.isNull() && !doc.isMissingNode() && doc.size() > 0) {
          docs.add(doc);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return docs;
  }
}
