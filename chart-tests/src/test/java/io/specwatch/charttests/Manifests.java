package io.specwatch.charttests;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/** Rendered Kubernetes objects, looked up by kind and name. */
record Manifests(List<JsonNode> objects) {

  static Manifests parse(String yaml) {
    return new Manifests(List.copyOf(Chart.documents(yaml)));
  }

  Optional<JsonNode> find(String kind, String name) {
    return objects.stream()
        .filter(o -> kind.equals(o.path("kind").asText()))
        .filter(o -> name.equals(o.path("metadata").path("name").asText()))
        .findFirst();
  }

  JsonNode get(String kind, String name) {
    Optional<JsonNode> found = find(kind, name);
    assertThat(found).as("%s %s in %s", kind, name, kindsAndNames()).isPresent();
    return found.orElseThrow();
  }

  List<JsonNode> ofKind(String kind) {
    return objects.stream().filter(o -> kind.equals(o.path("kind").asText())).toList();
  }

  List<String> kindsAndNames() {
    return objects.stream()
        .map(o -> o.path("kind").asText() + "/" + o.path("metadata").path("name").asText())
        .sorted()
        .toList();
  }

  /** Every pod template (workloads) and its pod spec. */
  List<JsonNode> podSpecs() {
    List<JsonNode> specs = new ArrayList<>();
    for (JsonNode o : objects) {
      JsonNode spec = o.path("spec").path("template").path("spec");
      if (!spec.isMissingNode()) {
        specs.add(spec);
      }
    }
    return specs;
  }

  Stream<JsonNode> containers() {
    return podSpecs().stream()
        .flatMap(
            spec ->
                Stream.concat(
                    stream(spec.path("containers")), stream(spec.path("initContainers"))));
  }

  static Stream<JsonNode> stream(JsonNode array) {
    List<JsonNode> list = new ArrayList<>();
    array.forEach(list::add);
    return list.stream();
  }

  static JsonNode podSpec(JsonNode workload) {
    return workload.path("spec").path("template").path("spec");
  }

  static JsonNode container(JsonNode workload, String name) {
    return stream(podSpec(workload).path("containers"))
        .filter(c -> name.equals(c.path("name").asText()))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no container " + name));
  }

  static List<String> args(JsonNode container) {
    return stream(container.path("args")).map(JsonNode::asText).toList();
  }

  static Optional<JsonNode> env(JsonNode container, String name) {
    return stream(container.path("env"))
        .filter(e -> name.equals(e.path("name").asText()))
        .findFirst();
  }

  static Optional<JsonNode> mount(JsonNode container, String name) {
    return stream(container.path("volumeMounts"))
        .filter(m -> name.equals(m.path("name").asText()))
        .findFirst();
  }

  static Optional<JsonNode> volume(JsonNode workload, String name) {
    return stream(podSpec(workload).path("volumes"))
        .filter(v -> name.equals(v.path("name").asText()))
        .findFirst();
  }
}
