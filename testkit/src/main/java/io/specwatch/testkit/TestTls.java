package io.specwatch.testkit;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Throw-away TLS material for a test broker, made with the JDK's {@code keytool} (no extra
 * dependency): a CA, a broker key store whose certificate the CA signed (SAN {@code localhost},
 * {@code 127.0.0.1} and the Docker host), a broker trust store (the CA, to verify client
 * certificates), a client trust store (the CA) and a client key store (a CA-signed client
 * certificate, for mutual TLS). All stores are PKCS12 with random passwords, valid for two days.
 */
public final class TestTls {

  /** The generated files and their passwords. */
  public record Material(
      Path dir,
      Path caCertPem,
      Path brokerKeystore,
      Path brokerTruststore,
      Path clientTruststore,
      Path clientKeystore,
      String brokerKeystorePassword,
      String brokerTruststorePassword,
      String clientTruststorePassword,
      String clientKeystorePassword) {

    /** Every password of the material, for "never logged" assertions. */
    public List<String> passwords() {
      return List.of(
          brokerKeystorePassword,
          brokerTruststorePassword,
          clientTruststorePassword,
          clientKeystorePassword);
    }
  }

  private TestTls() {}

  /**
   * Generates the material in {@code dir}.
   *
   * @param hosts extra host names or IP addresses for the broker certificate's SAN
   */
  public static Material generate(Path dir, String... hosts) throws IOException {
    Files.createDirectories(dir);
    String caPw = password("ca");
    String brokerPw = password("bks");
    String brokerTrustPw = password("bts");
    String clientTrustPw = password("cts");
    String clientPw = password("cks");
    Path ca = dir.resolve("ca.p12");
    Path caPem = dir.resolve("ca.pem");
    Path broker = dir.resolve("broker.keystore.p12");
    Path brokerTrust = dir.resolve("broker.truststore.p12");
    Path clientTrust = dir.resolve("client.truststore.p12");
    Path client = dir.resolve("client.keystore.p12");

    keytool(
        "-genkeypair",
        "-alias",
        "ca",
        "-dname",
        "CN=specwatch-test-ca",
        "-ext",
        "bc:c",
        "-keyalg",
        "EC",
        "-groupname",
        "secp256r1",
        "-validity",
        "2",
        "-storetype",
        "PKCS12",
        "-keystore",
        ca.toString(),
        "-storepass",
        caPw);
    keytool(
        "-exportcert",
        "-rfc",
        "-alias",
        "ca",
        "-keystore",
        ca.toString(),
        "-storepass",
        caPw,
        "-file",
        caPem.toString());
    StringBuilder san = new StringBuilder("SAN=dns:localhost,ip:127.0.0.1");
    for (String h : hosts) {
      if (h == null || h.isBlank() || h.equals("localhost") || h.equals("127.0.0.1")) {
        continue;
      }
      san.append(h.matches("[0-9.]+|[0-9a-fA-F:]+:[0-9a-fA-F:]*") ? ",ip:" : ",dns:").append(h);
    }
    signed(dir, "broker", "CN=localhost", san.toString(), broker, brokerPw, ca, caPw, caPem);
    signed(dir, "client", "CN=specwatch-app", null, client, clientPw, ca, caPw, caPem);
    for (var store :
        List.of(List.of(brokerTrust, brokerTrustPw), List.of(clientTrust, clientTrustPw))) {
      keytool(
          "-importcert",
          "-noprompt",
          "-alias",
          "ca",
          "-file",
          caPem.toString(),
          "-storetype",
          "PKCS12",
          "-keystore",
          store.get(0).toString(),
          "-storepass",
          store.get(1).toString());
    }
    return new Material(
        dir,
        caPem,
        broker,
        brokerTrust,
        clientTrust,
        client,
        brokerPw,
        brokerTrustPw,
        clientTrustPw,
        clientPw);
  }

  /** A key pair in {@code store}, its certificate signed by the CA, chain imported. */
  private static void signed(
      Path dir,
      String alias,
      String dname,
      String san,
      Path store,
      String pw,
      Path ca,
      String caPw,
      Path caPem)
      throws IOException {
    Path csr = dir.resolve(alias + ".csr");
    Path pem = dir.resolve(alias + ".pem");
    keytool(
        "-genkeypair",
        "-alias",
        alias,
        "-dname",
        dname,
        "-keyalg",
        "EC",
        "-groupname",
        "secp256r1",
        "-validity",
        "2",
        "-storetype",
        "PKCS12",
        "-keystore",
        store.toString(),
        "-storepass",
        pw);
    keytool(
        "-certreq",
        "-alias",
        alias,
        "-keystore",
        store.toString(),
        "-storepass",
        pw,
        "-file",
        csr.toString());
    List<String> gencert =
        new ArrayList<>(
            List.of(
                "-gencert",
                "-rfc",
                "-alias",
                "ca",
                "-keystore",
                ca.toString(),
                "-storepass",
                caPw,
                "-infile",
                csr.toString(),
                "-outfile",
                pem.toString(),
                "-validity",
                "2"));
    if (san != null) {
      gencert.add("-ext");
      gencert.add(san);
    }
    keytool(gencert.toArray(String[]::new));
    keytool(
        "-importcert",
        "-noprompt",
        "-alias",
        "ca",
        "-file",
        caPem.toString(),
        "-keystore",
        store.toString(),
        "-storepass",
        pw);
    keytool(
        "-importcert",
        "-alias",
        alias,
        "-file",
        pem.toString(),
        "-keystore",
        store.toString(),
        "-storepass",
        pw);
  }

  private static String password(String prefix) {
    byte[] b = new byte[8];
    new SecureRandom().nextBytes(b);
    return prefix + "-" + HexFormat.of().formatHex(b);
  }

  private static void keytool(String... args) throws IOException {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
    // a short-lived JVM: start it the cheap way
    cmd.add("-J-XX:TieredStopAtLevel=1");
    cmd.add("-J-XX:+UseSerialGC");
    cmd.addAll(List.of(args));
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    try {
      if (!p.waitFor(60, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        throw new IOException("keytool " + args[0] + " timed out");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted", e);
    }
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (p.exitValue() != 0) {
      throw new IOException("keytool " + args[0] + " failed (exit " + p.exitValue() + "): " + out);
    }
  }
}
