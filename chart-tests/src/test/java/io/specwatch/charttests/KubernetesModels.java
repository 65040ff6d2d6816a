package io.specwatch.charttests;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.KubernetesResource;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.DaemonSet;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * A strict-ish check of rendered objects against the Kubernetes API: each object is read into the
 * fabric8 model class of its apiVersion/kind (wrong types fail there), then every nested model
 * object is checked for fields the API does not define (fabric8 keeps those in {@code
 * additionalProperties} instead of failing).
 */
final class KubernetesModels {
  private static final Map<String, Class<? extends KubernetesResource>> TYPES =
      Map.of(
          "v1/ConfigMap", ConfigMap.class,
          "v1/Secret", Secret.class,
          "v1/Service", Service.class,
          "apps/v1/DaemonSet", DaemonSet.class,
          "apps/v1/StatefulSet", StatefulSet.class,
          "apps/v1/Deployment", Deployment.class,
          "batch/v1/Job", Job.class,
          "policy/v1/PodDisruptionBudget", PodDisruptionBudget.class);

  /** Custom resources the Kubernetes API schemas do not cover; checked by their own tests. */
  static final List<String> CUSTOM = List.of("monitoring.coreos.com/v1/ServiceMonitor");

  private static final JsonMapper MAPPER =
      JsonMapper.builder().enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES).build();

  private KubernetesModels() {}

  /** Problems found in one rendered object; empty when it fits the API. */
  static List<String> problems(JsonNode object) {
    String type = object.path("apiVersion").asText() + "/" + object.path("kind").asText();
    String where = type + " " + object.path("metadata").path("name").asText();
    List<String> problems = new ArrayList<>();
    if (CUSTOM.contains(type)) {
      return problems;
    }
    Class<? extends KubernetesResource> cls = TYPES.get(type);
    if (cls == null) {
      problems.add(where + ": no model for " + type);
      return problems;
    }
    Object model;
    try {
      model = MAPPER.readValue(object.toString(), cls);
    } catch (RuntimeException e) {
      problems.add(where + ": " + e.getMessage());
      return problems;
    }
    unknownFields(model, where, problems);
    return problems;
  }

  private static void unknownFields(Object value, String path, List<String> problems) {
    if (value == null) {
      return;
    }
    if (value instanceof Collection<?> c) {
      int i = 0;
      for (Object item : c) {
        unknownFields(item, path + "[" + i++ + "]", problems);
      }
      return;
    }
    if (value instanceof Map<?, ?> m) {
      m.forEach((k, v) -> unknownFields(v, path + "." + k, problems));
      return;
    }
    if (!value.getClass().getName().startsWith("io.fabric8.kubernetes.api.model")) {
      return;
    }
    for (Method getter : value.getClass().getMethods()) {
      if (getter.getParameterCount() != 0
          || Modifier.isStatic(getter.getModifiers())
          || !getter.getName().startsWith("get")
          || getter.getDeclaringClass() == Object.class) {
        continue;
      }
      Object child;
      try {
        child = getter.invoke(value);
      } catch (IllegalAccessException | InvocationTargetException e) {
        continue;
      }
      String field = getter.getName().substring(3);
      if (field.equals("AdditionalProperties")) {
        if (child instanceof Map<?, ?> extra && !extra.isEmpty()) {
          problems.add(path + ": fields unknown to the Kubernetes API: " + extra.keySet());
        }
      } else {
        unknownFields(child, path + "." + decapitalize(field), problems);
      }
    }
  }

  private static String decapitalize(String s) {
    return s.isEmpty() ? s : Character.toLowerCase(s.charAt(0)) + s.substring(1);
  }
}
