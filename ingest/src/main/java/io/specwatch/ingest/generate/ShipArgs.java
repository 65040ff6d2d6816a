package io.specwatch.ingest.generate;

import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@code ingest ship} / {@code tail} options that tell the shipper what a deployment's files do
 * not: its id, the year of vLLM's year-less timestamps, the hardware (no engine prints it, and
 * baselines are compared per model, hardware class and TP), the whole run context of TensorRT-LLM
 * (no startup line) and k for the vLLM spec lines without a per-position list. Listed per
 * deployment in the manifest as {@code shipArgs}.
 */
public final class ShipArgs {

  private ShipArgs() {}

  public static List<String> of(DeploymentSpec d, Instant start) {
    List<String> a = new ArrayList<>();
    add(a, "--deployment", d.id());
    add(a, "--host", d.host());
    add(a, "--log-year", Integer.toString(start.atZone(ZoneOffset.UTC).getYear()));
    Hardware h = d.hardware();
    add(a, "--hardware-class", h.hardwareClass());
    add(a, "--gpu-model", h.gpuModel());
    add(a, "--gpu-count", Integer.toString(h.gpuCount()));
    add(a, "--interconnect", h.interconnect());
    if (d.format() == LogFormat.TRTLLM_ITERATION_STATS) {
      add(a, "--engine-family", "TRTLLM");
      add(a, "--model", d.model());
      add(a, "--spec-method", d.method().wireName());
      add(a, "--tp", Integer.toString(d.tp()));
      if (d.draftModel() != null) {
        add(a, "--draft-model", d.draftModel());
      }
      if (d.draftModelVersion() != null) {
        add(a, "--draft-model-version", d.draftModelVersion());
      }
    }
    if (d.method().speculative()
        && (d.format() == LogFormat.VLLM_V1_SPEC_V1 || d.format() == LogFormat.VLLM_V1_SPEC_V2)) {
      add(a, "--speculative-num-steps", Integer.toString(d.draftTokens()));
    }
    return a;
  }

  private static void add(List<String> a, String option, String value) {
    a.add(option);
    a.add(value);
  }
}
