package io.specwatch.sink.sqlcheck;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * chdb, the npm package embedding ClickHouse 26.x, driven through {@code scripts/chdb-run.cjs}: one
 * Node process per {@link #run} call, one chdb session, statements in order. The package is
 * installed on first use by {@code scripts/lib.sh fetch_chdb} into {@code
 * ~/.cache/specwatch/chdb-<version>} ({@code SPECWATCH_CHDB_DIR} points at another install).
 */
final class ChdbEngine implements SqlEngine {

  private static final JsonFactory JSON = new JsonFactory();
  private static Path installDir;

  @Override
  public String name() {
    return "chdb";
  }

  /** The repository root: the nearest parent of the working directory holding scripts/lib.sh. */
  static Path repoRoot() {
    Path dir = Path.of("").toAbsolutePath();
    while (dir != null && !Files.isRegularFile(dir.resolve("scripts/chdb-run.cjs"))) {
      dir = dir.getParent();
    }
    if (dir == null) {
      throw new IllegalStateException(
          "scripts/chdb-run.cjs not found above " + Path.of("").toAbsolutePath());
    }
    return dir;
  }

  /** Installs chdb if needed (the project's own script) and returns its directory. */
  static synchronized Path install() {
    if (installDir != null) {
      return installDir;
    }
    String override = System.getenv("SPECWATCH_CHDB_DIR");
    if (override != null && !override.isBlank()) {
      installDir = Path.of(override);
      return installDir;
    }
    Path root = repoRoot();
    String out =
        exec(
            List.of("bash", "-c", "source scripts/lib.sh && fetch_chdb"),
            root,
            Map.of(),
            new byte[0],
            900);
    String[] lines = out.strip().split("\n");
    installDir = Path.of(lines[lines.length - 1].strip());
    if (!Files.isDirectory(installDir.resolve("node_modules/chdb"))) {
      throw new IllegalStateException("fetch_chdb did not install chdb into " + installDir);
    }
    return installDir;
  }

  @Override
  public List<Outcome> run(String database, List<Statement> statements) {
    Path dir = install();
    List<Statement> all = new ArrayList<>();
    all.add(Statement.exec("create database", "CREATE DATABASE IF NOT EXISTS " + database));
    all.add(Statement.exec("use database", "USE " + database));
    all.addAll(statements);
    String response =
        exec(
            List.of("node", repoRoot().resolve("scripts/chdb-run.cjs").toString()),
            repoRoot(),
            Map.of("NODE_PATH", dir.resolve("node_modules").toString()),
            request(all),
            600);
    List<Outcome> outcomes = parse(all, response);
    return outcomes.subList(2, outcomes.size());
  }

  private static byte[] request(List<Statement> statements) {
    ByteArrayOutputStream buf = new ByteArrayOutputStream();
    try (JsonGenerator g = JSON.createGenerator(buf)) {
      g.writeStartObject();
      g.writeStringField("format", "TSVWithNames");
      g.writeArrayFieldStart("statements");
      for (Statement s : statements) {
        g.writeStartObject();
        g.writeStringField("sql", s.sql());
        if (!s.nativeParams().isEmpty()) {
          g.writeObjectFieldStart("params");
          for (Map.Entry<String, String> e : s.nativeParams().entrySet()) {
            g.writeStringField(e.getKey(), e.getValue());
          }
          g.writeEndObject();
        }
        g.writeEndObject();
      }
      g.writeEndArray();
      g.writeEndObject();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return buf.toByteArray();
  }

  private static List<Outcome> parse(List<Statement> statements, String response) {
    List<Outcome> out = new ArrayList<>();
    try (JsonParser p = JSON.createParser(response)) {
      if (p.nextToken() != JsonToken.START_ARRAY) {
        throw new IllegalStateException("chdb-run answered no JSON array: " + response);
      }
      int i = 0;
      while (p.nextToken() == JsonToken.START_OBJECT) {
        boolean ok = false;
        String text = "";
        String error = null;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
          String field = p.currentName();
          p.nextToken();
          switch (field) {
            case "ok" -> ok = p.getBooleanValue();
            case "out" -> text = p.getText();
            case "error" -> error = p.getText();
            default -> p.skipChildren();
          }
        }
        out.add(new Outcome(statements.get(i++), ok, text, error));
      }
    } catch (IOException e) {
      throw new UncheckedIOException("bad chdb-run answer: " + response, e);
    }
    if (out.size() != statements.size()) {
      throw new IllegalStateException(
          "chdb-run answered " + out.size() + " results for " + statements.size() + " statements");
    }
    return out;
  }

  private static String exec(
      List<String> command, Path dir, Map<String, String> env, byte[] stdin, long timeoutSeconds) {
    try {
      ProcessBuilder pb = new ProcessBuilder(command).directory(dir.toFile());
      pb.environment().putAll(env);
      Process process = pb.start();
      CompletableFuture<byte[]> stdout =
          CompletableFuture.supplyAsync(() -> readAll(process.getInputStream()));
      CompletableFuture<byte[]> stderr =
          CompletableFuture.supplyAsync(() -> readAll(process.getErrorStream()));
      try (OutputStream in = process.getOutputStream()) {
        in.write(stdin);
      }
      if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        throw new IllegalStateException(command + " did not finish in " + timeoutSeconds + " s");
      }
      String err = new String(stderr.join(), StandardCharsets.UTF_8);
      if (process.exitValue() != 0) {
        throw new IllegalStateException(command + " exited " + process.exitValue() + ": " + err);
      }
      return new String(stdout.join(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot run " + command, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted running " + command, e);
    }
  }

  private static byte[] readAll(java.io.InputStream in) {
    try {
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
