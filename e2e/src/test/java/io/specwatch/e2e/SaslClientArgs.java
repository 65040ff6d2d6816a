package io.specwatch.e2e;

import io.specwatch.testkit.TestTls;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The credentials of {@link SaslPipelineIT}'s SCRAM user and registry, and the command-line options
 * that give an app the client side of the SASL_SSL listener: TLS stores and SCRAM credentials.
 */
final class SaslClientArgs {

  static final String USER = "specwatch-app";
  static final String PASSWORD = "scram-Pw-4f9c1e";
  static final String REGISTRY_PASSWORD = "reg-Pw-77d0b2";

  private SaslClientArgs() {}

  /**
   * The client TLS options: CA trust store, client key store (mutual TLS), their passwords from
   * files as the chart's mounted Secrets provide them.
   */
  static List<String> tlsArgs(TestTls.Material tls) {
    try {
      Path dir = tls.dir();
      Path tsPw =
          Files.writeString(
              dir.resolve("client-truststore.password"), tls.clientTruststorePassword() + "\n");
      Path ksPw =
          Files.writeString(
              dir.resolve("client-keystore.password"), tls.clientKeystorePassword() + "\n");
      return List.of(
          "--kafka-truststore",
          tls.clientTruststore().toString(),
          "--kafka-truststore-type",
          "PKCS12",
          "--kafka-truststore-password-file",
          tsPw.toString(),
          "--kafka-keystore-type",
          "PKCS12",
          "--kafka-keystore",
          tls.clientKeystore().toString(),
          "--kafka-keystore-password-file",
          ksPw.toString(),
          "--kafka-key-password-file",
          ksPw.toString());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The security options every app gets: TLS stores, SCRAM with a password file, registry auth. */
  static List<String> securityArgs(TestTls.Material tls, Path passwordFile) {
    List<String> args = new ArrayList<>(tlsArgs(tls));
    args.addAll(
        List.of(
            "--kafka-sasl-mechanism",
            "SCRAM-SHA-512",
            "--kafka-sasl-username",
            USER,
            "--kafka-sasl-password-file",
            passwordFile.toString(),
            // the test registry has no auth and ignores the header; the point is the masking
            "--registry-user",
            "reader",
            "--registry-password",
            REGISTRY_PASSWORD));
    return args;
  }
}
