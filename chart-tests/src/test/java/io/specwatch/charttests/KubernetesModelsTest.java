package io.specwatch.charttests;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Rendered objects of every values combination the chart tests use fit the Kubernetes API. */
class KubernetesModelsTest {

  @Test
  void everyRenderedObjectFitsTheKubernetesApi() {
    List<String> problems = new ArrayList<>();
    int checked = 0;
    for (String values : ValuesScenarios.ALL) {
      for (JsonNode object : Chart.renderWithHooksVisible(values).objects()) {
        problems.addAll(KubernetesModels.problems(object));
        checked++;
      }
    }
    assertThat(problems).isEmpty();
    assertThat(checked).isGreaterThan(30);
  }

  @Test
  void theCheckCatchesAFieldTheApiDoesNotHave() {
    JsonNode sink = Chart.render("").get("Deployment", Chart.FULLNAME + "-sink").deepCopy();
    ((ObjectNode) Manifests.container(sink, "sink")).put("readinesProbe", "typo");
    assertThat(KubernetesModels.problems(sink))
        .singleElement()
        .asString()
        .contains("readinesProbe");
  }

  @Test
  void theCheckCatchesAWrongType() {
    JsonNode streams = Chart.render("").get("StatefulSet", Chart.FULLNAME + "-streams").deepCopy();
    ((ObjectNode) streams.path("spec")).put("replicas", "two");
    assertThat(KubernetesModels.problems(streams)).isNotEmpty();
  }
}
