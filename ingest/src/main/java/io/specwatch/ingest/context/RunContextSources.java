package io.specwatch.ingest.context;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;

/**
 * The configured run-context sources: the CLI options (a partial context) and the optional {@code
 * --run-context} JSON file ({@code specwatch.run_context.v1} shape; every key optional, {@code
 * schema} when present must be that id).
 *
 * @param cli what the CLI options state ({@link ContextFields#EMPTY} when none)
 * @param file the run-context file, or null
 */
public record RunContextSources(ContextFields cli, Path file) {

  public static final RunContextSources NONE = new RunContextSources(ContextFields.EMPTY, null);

  private static final ObjectMapper JSON = new ObjectMapper();

  public RunContextSources {
    Objects.requireNonNull(cli, "cli");
  }

  /**
   * Reads the file.
   *
   * @throws IllegalArgumentException naming the setting, the file and the bad field
   */
  public static ContextFields readFile(Path file) {
    JsonNode o;
    try {
      o = JSON.readTree(Files.readString(file));
    } catch (IOException e) {
      throw new IllegalArgumentException(
          "setting 'run-context' (SPECWATCH_RUN_CONTEXT): cannot read "
              + file
              + ": "
              + e.getMessage(),
          e);
    }
    if (o == null || !o.isObject()) {
      throw new IllegalArgumentException(
          "setting 'run-context' (SPECWATCH_RUN_CONTEXT): " + file + " is not a JSON object");
    }
    JsonNode schema = o.get("schema");
    if (schema != null && !schema.asText().equals(RunContextJson.SCHEMA)) {
      throw new IllegalArgumentException(
          "setting 'run-context' (SPECWATCH_RUN_CONTEXT): "
              + file
              + ": schema must be "
              + RunContextJson.SCHEMA
              + ", was "
              + schema);
    }
    try {
      return RunContextJson.read(o).withDeployment(null);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "setting 'run-context' (SPECWATCH_RUN_CONTEXT): " + file + ": " + e.getMessage(), e);
    }
  }

  /** A tracker for {@code deployment} with the CLI layer and the file read (fails fast). */
  public RunContextTracker newTracker(String deployment) {
    RunContextTracker t = new RunContextTracker(deployment);
    t.setCli(cli);
    if (file != null) {
      t.setFile(readFile(file));
    }
    return t;
  }
}
