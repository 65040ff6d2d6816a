package io.specwatch.sink.migrate;

import io.specwatch.sink.ResourceFolder;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/** Finds the migration files in a class-path folder (a directory or inside a jar), ordered. */
public final class MigrationLoader {

  public static final String DEFAULT_LOCATION = "db/migration";

  private MigrationLoader() {}

  /** Loads {@link #DEFAULT_LOCATION} from this module's class path. */
  public static List<Migration> loadDefault() {
    return load(MigrationLoader.class.getClassLoader(), DEFAULT_LOCATION);
  }

  /** Loads every {@code V*__*.sql} under the folder, sorted by version; duplicates are an error. */
  public static List<Migration> load(ClassLoader loader, String location) {
    return parse(ResourceFolder.read(loader, location, name -> name.endsWith(".sql")));
  }

  static List<Migration> fromDirectory(Path dir) throws IOException {
    return parse(ResourceFolder.read(dir, name -> name.endsWith(".sql")));
  }

  private static List<Migration> parse(Map<String, String> files) {
    List<Migration> migrations = new ArrayList<>();
    files.forEach(
        (name, text) -> {
          if (!Migration.isMigrationFile(name)) {
            throw new IllegalStateException(
                "SQL file with a bad migration name (want V001__description.sql): " + name);
          }
          migrations.add(Migration.fromFile(name, text));
        });
    return sorted(migrations);
  }

  /** Sorts by version and rejects two files with the same version. */
  public static List<Migration> sorted(List<Migration> migrations) {
    List<Migration> out = new ArrayList<>(migrations);
    out.sort(Comparator.comparingInt(Migration::version));
    for (int i = 1; i < out.size(); i++) {
      if (out.get(i).version() == out.get(i - 1).version()) {
        throw new IllegalStateException(
            "two migrations with version "
                + out.get(i).version()
                + ": "
                + out.get(i - 1).description()
                + ", "
                + out.get(i).description());
      }
    }
    return List.copyOf(out);
  }
}
