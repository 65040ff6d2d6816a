package io.specwatch.ingest.generate;

/**
 * GPUs of a deployment.
 *
 * @param gpuModel e.g. {@code RTX PRO 6000 Blackwell}
 * @param gpuCount GPUs used
 * @param interconnect PCIe, NVLink
 * @param hardwareClass comparison class for baselines, e.g. {@code rtx-pro-6000x8}
 */
public record Hardware(String gpuModel, int gpuCount, String interconnect, String hardwareClass) {}
