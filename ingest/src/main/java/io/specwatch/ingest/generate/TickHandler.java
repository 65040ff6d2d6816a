package io.specwatch.ingest.generate;

/** What happens to simulated ticks: files ({@link FileOutput}) or Kafka ({@link KafkaOutput}). */
public interface TickHandler {

  /** Before the first tick of a deployment. */
  void begin(DeploymentSpec d);

  void tick(DeploymentSpec d, Tick t);

  /** After the last tick of a deployment. */
  void end(DeploymentSpec d);

  /** Realtime mode calls this before it waits: make what was written visible. */
  void flush();
}
