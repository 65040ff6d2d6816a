package io.specwatch.ingest.tail;

import io.specwatch.ingest.context.ContextFields;
import io.specwatch.ingest.context.RunContextTracker;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Collection;
import java.util.Map;
import java.util.Optional;

/**
 * Saves the {@link Tailer}'s checkpoints and, before them, the run-context layers the logs revealed
 * ({@link RunContextState}), each only as of acknowledged lines. Loop thread only.
 */
final class CheckpointWriter {

  /** The log layers as they stood after the line ending at endOffset of tracker's file. */
  private record LayersAfter(
      AckTracker tracker, long endOffset, Map<String, ContextFields> layers) {

    boolean committed() {
      return tracker.committed().offset() >= endOffset;
    }
  }

  private final Path checkpointDir;
  private final CheckpointStore store;
  private final RunContextTracker contexts;
  private final StopSignal signal;
  // the log layers after each line that changed them, oldest first, until the checkpoint of that
  // line's file passed it (loop thread only)
  private final ArrayDeque<LayersAfter> unsavedLayers = new ArrayDeque<>();
  private long readLogVersion;

  /**
   * @param contexts the tracker whose log layers are saved, restored from the checkpoint dir
   */
  CheckpointWriter(
      Path checkpointDir, CheckpointStore store, RunContextTracker contexts, StopSignal signal) {
    this.checkpointDir = checkpointDir;
    this.store = store;
    this.contexts = contexts;
    this.signal = signal;
    this.readLogVersion = contexts.logVersion();
  }

  /** The stored checkpoint of source, empty when none. */
  Optional<Checkpoint> load(String source) {
    return store.load(source);
  }

  /**
   * Called after the line ending at endOffset of tracker's file was ingested: keeps the log layers
   * as they stand now when the line changed them.
   */
  void lineRead(AckTracker tracker, long endOffset) {
    long version = contexts.logVersion();
    if (version != readLogVersion) { // rare: the line revealed context fields
      unsavedLayers.addLast(new LayersAfter(tracker, endOffset, contexts.logLayers()));
      readLogVersion = version;
    }
  }

  /**
   * The run-context state first, then the checkpoints, and the state only as of lines the
   * checkpoints pass. A checkpoint past a line that revealed a context must never be on disk
   * without that context (a restart would resume after the line and stamp later events with the
   * context from before it), and a context must never be on disk before the checkpoints pass the
   * line that revealed it (a restart would read the lines before it again and stamp them with it).
   * Layers are saved as of the newest change whose line, and every earlier change's line, the
   * checkpoints cover: the acks read here can only advance before the checkpoints below are read.
   */
  void saveAll(Collection<Source> sources) {
    saveCoveredLayers();
    for (Source s : sources) {
      saveCheckpoint(s);
    }
  }

  /** One source's checkpoint (at a rotation), the covered layers first as in {@link #saveAll}. */
  void save(Source s) {
    saveCoveredLayers();
    saveCheckpoint(s);
  }

  private void saveCoveredLayers() {
    LayersAfter covered = null;
    while (!unsavedLayers.isEmpty() && unsavedLayers.peekFirst().committed()) {
      covered = unsavedLayers.pollFirst();
    }
    if (!signal.crashed() && covered != null) {
      RunContextState.save(checkpointDir, covered.layers());
    }
  }

  private void saveCheckpoint(Source s) {
    if (signal.crashed() || s.tracker == null) {
      return;
    }
    AckTracker.Committed at = s.tracker.committed();
    Checkpoint cp = new Checkpoint(s.file.source(), s.genIdentity, at.offset(), at.lines());
    if (!cp.equals(s.lastSaved)) {
      store.save(cp);
      s.lastSaved = cp;
    }
  }
}
