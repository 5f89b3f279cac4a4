package dev.machinery.apiserver.authentication;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.machinery.apiserver.certs.CertificateDataException;
import dev.machinery.apiserver.certs.Pem;
import dev.machinery.apiserver.certs.PrivateKeys;
import dev.machinery.apiserver.http.ApiHandler;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.MessageDigest;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.Signature;
import java.security.cert.CertificateFactory;
import java.security.interfaces.ECPrivateKey;
import java.security.interfaces.ECPublicKey;
import java.security.interfaces.RSAPrivateCrtKey;
import java.security.spec.ECGenParameterSpec;
import java.security.spec.RSAPublicKeySpec;
import java.security.spec.X509EncodedKeySpec;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The service-account token issuer of a server, as kube-apiserver's {@code
 * --service-account-issuer}, {@code --service-account-signing-key-file}, {@code
 * --service-account-key-file}, {@code --api-audiences} and {@code
 * --service-account-max-token-expiration}: it signs the JWTs the {@code serviceaccounts/token}
 * subresource ({@code TokenRequest}) of an {@code ApiServer} answers with ({@code RS256} for an RSA
 * key, {@code ES256} for a P-256 key, the header's {@code kid} the base64url SHA-256 of the public
 * key's DER), and its {@link #authenticator(ApiHandler) authenticator} accepts them: a signature by
 * one of the verification keys, this issuer, an audience among the API audiences, not expired
 * ({@code nbf} with a minute's leeway), and the service account (and the pod, secret or node the
 * token is bound to) still existing with the claimed uid.
 *
 * <p>Without a key, {@link #generate()} makes a P-256 key (tokens then die with the server), when
 * the first token is signed or checked or the key is first read: a fresh JVM spends a tenth of a
 * second on its first key pair, which a server that never sees a token need not. Java's own {@code
 * java.security}; no other library.
 *
 * <p>Immutable; thread-safe.
 */
public final class ServiceAccountTokens {
  /** The issuer when none is given: kube's in-cluster name of the API server. */
  public static final String DEFAULT_ISSUER = "https://kubernetes.default.svc.cluster.local";

  /** The longest token when no maximum is given: kube's {@code 2^32} seconds. */
  public static final Duration DEFAULT_MAX_EXPIRATION = Duration.ofSeconds(1L << 32);

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Base64.Encoder B64 = Base64.getUrlEncoder().withoutPadding();

  private final String issuer;
  private final List<PublicKey> givenVerificationKeys;
  private volatile Keys keys;
  private final List<String> apiAudiences;
  private final Duration maxExpiration;
  private final Clock clock;

  private ServiceAccountTokens(Builder builder) {
    this.issuer = builder.issuer;
    this.givenVerificationKeys = List.copyOf(builder.verificationKeys);
    if (builder.signingKey != null) {
      this.keys =
          Keys.of(new KeyPair(builder.signingPublicKey, builder.signingKey), givenVerificationKeys);
    }
    this.apiAudiences =
        builder.apiAudiences.isEmpty() ? List.of(issuer) : List.copyOf(builder.apiAudiences);
    this.maxExpiration = builder.maxExpiration;
    this.clock = builder.clock;
  }

  /** The signing key and the keys tokens are verified with (the signing key's first). */
  private record Keys(PrivateKey signing, PublicKey signingPublic, List<PublicKey> verification) {
    static Keys of(KeyPair signing, List<PublicKey> others) {
      List<PublicKey> keys = new ArrayList<>();
      keys.add(signing.getPublic());
      for (PublicKey key : others) {
        if (!key.equals(signing.getPublic())) {
          keys.add(key);
        }
      }
      return new Keys(signing.getPrivate(), signing.getPublic(), List.copyOf(keys));
    }
  }

  /** The keys: the builder's, or a P-256 key pair made on the first call. */
  private Keys keys() {
    Keys known = keys;
    if (known == null) {
      synchronized (this) {
        known = keys;
        if (known == null) {
          known = Keys.of(p256(), givenVerificationKeys);
          keys = known;
        }
      }
    }
    return known;
  }

  private static KeyPair p256() {
    try {
      KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
      generator.initialize(new ECGenParameterSpec("secp256r1"));
      return generator.generateKeyPair();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("cannot make a P-256 key: " + e.getMessage(), e);
    }
  }

  /**
   * Returns an issuer of {@link #DEFAULT_ISSUER} with a P-256 key of its own, made on first use.
   *
   * @return the issuer
   */
  public static ServiceAccountTokens generate() {
    return builder().build();
  }

  /**
   * Starts building an issuer.
   *
   * @return the builder
   */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Returns the issuer ({@code iss}) of the tokens.
   *
   * @return the issuer URL
   */
  public String issuer() {
    return issuer;
  }

  /**
   * Returns the audiences the authenticator accepts and a TokenRequest without audiences gets.
   *
   * @return the API audiences (the issuer when none was given, as kube-apiserver defaults them)
   */
  public List<String> apiAudiences() {
    return apiAudiences;
  }

  /**
   * Returns the longest life a token is given; longer requests are cut to it.
   *
   * @return the maximum
   */
  public Duration maxExpiration() {
    return maxExpiration;
  }

  /**
   * Returns the clock tokens are stamped and checked with.
   *
   * @return the clock
   */
  public Clock clock() {
    return clock;
  }

  /**
   * Returns the public key tokens are signed for, as a PEM {@code PUBLIC KEY}.
   *
   * @return the PEM text
   */
  public String publicKeyPem() {
    return Pem.encode("PUBLIC KEY", keys().signingPublic().getEncoded());
  }

  /**
   * Returns the authenticator of this issuer's tokens. It answers empty for a request without a
   * bearer token or whose token is not a JWT of this issuer (another authenticator may know it),
   * and refuses one of this issuer that does not hold. Objects are read through the handler (the
   * server's loopback).
   *
   * @param loopback reads service accounts, pods, secrets and nodes
   * @return the authenticator
   */
  public Authenticator authenticator(ApiHandler loopback) {
    return new ServiceAccountTokenAuthenticator(this, Objects.requireNonNull(loopback, "loopback"));
  }

  /**
   * Signs a claims set as a compact JWS with this issuer's key: the header names the algorithm
   * ({@code RS256} or {@code ES256}) and kube's key id. The caller writes the claims ({@code iss}
   * should be {@link #issuer()} for the authenticator to accept the token).
   *
   * @param claims the claims, written as a JSON object
   * @return the token
   */
  public String sign(Map<String, ?> claims) {
    return sign(JSON.<ObjectNode>valueToTree(claims));
  }

  /** Signs a claims set as a compact JWS. */
  String sign(ObjectNode claims) {
    Keys keys = keys();
    PrivateKey signingKey = keys.signing();
    ObjectNode header = JSON.createObjectNode();
    header.put("alg", algorithm(signingKey));
    header.put("kid", keyId(keys.signingPublic()));
    try {
      String signingInput =
          B64.encodeToString(JSON.writeValueAsBytes(header))
              + "."
              + B64.encodeToString(JSON.writeValueAsBytes(claims));
      Signature signature = Signature.getInstance(javaAlgorithm(algorithm(signingKey)));
      signature.initSign(signingKey);
      signature.update(signingInput.getBytes(StandardCharsets.US_ASCII));
      return signingInput + "." + B64.encodeToString(signature.sign());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("cannot sign a service account token: " + e.getMessage(), e);
    }
  }

  /**
   * Reads a compact JWS: its claims when the header, the signature (by a verification key) and the
   * issuer hold; empty when it is not a JWT of this issuer.
   */
  Optional<JsonNode> verify(String token) throws AuthenticationException {
    String[] parts = token.split("\\.", -1);
    if (parts.length != 3) {
      return Optional.empty();
    }
    JsonNode header;
    JsonNode claims;
    try {
      header = JSON.readTree(Base64.getUrlDecoder().decode(parts[0]));
      claims = JSON.readTree(Base64.getUrlDecoder().decode(parts[1]));
    } catch (IOException | IllegalArgumentException e) {
      return Optional.empty();
    }
    if (header == null || claims == null || !claims.isObject()) {
      return Optional.empty();
    }
    if (!issuer.equals(claims.path("iss").asText(null))) {
      return Optional.empty();
    }
    String alg = header.path("alg").asText("");
    if (!alg.equals("RS256") && !alg.equals("ES256")) {
      throw new AuthenticationException("invalid bearer token: unsupported algorithm " + alg);
    }
    byte[] signed = (parts[0] + "." + parts[1]).getBytes(StandardCharsets.US_ASCII);
    byte[] signatureBytes;
    try {
      signatureBytes = Base64.getUrlDecoder().decode(parts[2]);
    } catch (IllegalArgumentException e) {
      throw new AuthenticationException("invalid bearer token: the signature is not base64url");
    }
    for (PublicKey key : keys().verification()) {
      if (!alg.equals(algorithm(key))) {
        continue;
      }
      try {
        Signature signature = Signature.getInstance(javaAlgorithm(alg));
        signature.initVerify(key);
        signature.update(signed);
        if (signature.verify(signatureBytes)) {
          return Optional.of(claims);
        }
      } catch (GeneralSecurityException e) {
        // A signature that does not parse under this key: try the next.
      }
    }
    throw new AuthenticationException("invalid bearer token: the signature does not verify");
  }

  private static String algorithm(java.security.Key key) {
    return switch (key.getAlgorithm()) {
      case "RSA" -> "RS256";
      case "EC" -> "ES256";
      default ->
          throw new IllegalArgumentException(
              "a service account key must be RSA or EC P-256, not " + key.getAlgorithm());
    };
  }

  private static String javaAlgorithm(String alg) {
    return alg.equals("RS256") ? "SHA256withRSA" : "SHA256withECDSAinP1363Format";
  }

  /** kube's key id: the unpadded base64url SHA-256 of the public key's DER. */
  static String keyId(PublicKey key) {
    try {
      return B64.encodeToString(MessageDigest.getInstance("SHA-256").digest(key.getEncoded()));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Builds a {@link ServiceAccountTokens}. Not thread-safe. */
  public static final class Builder {
    private String issuer = DEFAULT_ISSUER;
    private PrivateKey signingKey;
    private PublicKey signingPublicKey;
    private final List<PublicKey> verificationKeys = new ArrayList<>();
    private final List<String> apiAudiences = new ArrayList<>();
    private Duration maxExpiration = DEFAULT_MAX_EXPIRATION;
    private Clock clock = Clock.systemUTC();

    private Builder() {}

    /**
     * Sets the issuer ({@code --service-account-issuer}).
     *
     * @param issuer the issuer, such as {@code https://kubernetes.default.svc.cluster.local}
     * @return this builder
     * @throws IllegalArgumentException when it is empty
     */
    public Builder issuer(String issuer) {
      if (Objects.requireNonNull(issuer, "issuer").isBlank()) {
        throw new IllegalArgumentException("service-account-issuer: may not be empty");
      }
      this.issuer = issuer;
      return this;
    }

    /**
     * Signs with a key pair.
     *
     * @param keys an RSA or EC P-256 key pair
     * @return this builder
     * @throws IllegalArgumentException when the key is neither RSA nor EC
     */
    public Builder signingKey(KeyPair keys) {
      algorithm(keys.getPrivate());
      this.signingKey = keys.getPrivate();
      this.signingPublicKey = keys.getPublic();
      return this;
    }

    /**
     * Signs with the private key of a PEM file ({@code --service-account-signing-key-file}). The
     * public key of an RSA key is derived from it; that of an EC key is the first key of {@link
     * #keyFile} files given, which must then hold it.
     *
     * @param file a PEM {@code PRIVATE KEY}, {@code RSA PRIVATE KEY} or {@code EC PRIVATE KEY}
     * @return this builder
     * @throws UncheckedIOException when the file cannot be read
     * @throws CertificateDataException when it holds no usable private key
     */
    public Builder signingKeyFile(Path file) {
      String pem = read(file);
      PrivateKey key = PrivateKeys.fromPem(pem);
      algorithm(key);
      this.signingKey = key;
      this.signingPublicKey = key instanceof RSAPrivateCrtKey rsa ? publicOf(rsa) : null;
      return this;
    }

    /**
     * Adds the public keys of a PEM file to those tokens are verified with ({@code
     * --service-account-key-file}; may be given more than once): {@code PUBLIC KEY} blocks and the
     * keys of {@code CERTIFICATE} blocks.
     *
     * @param file the PEM file
     * @return this builder
     * @throws UncheckedIOException when the file cannot be read
     * @throws CertificateDataException when it holds no public key
     */
    public Builder keyFile(Path file) {
      List<PublicKey> found = publicKeys(read(file), file.toString());
      verificationKeys.addAll(found);
      return this;
    }

    /**
     * Sets the audiences the authenticator accepts ({@code --api-audiences}); the issuer when none.
     *
     * @param audiences the audiences
     * @return this builder
     */
    public Builder apiAudiences(List<String> audiences) {
      apiAudiences.clear();
      apiAudiences.addAll(audiences);
      return this;
    }

    /**
     * Sets the longest life of a token ({@code --service-account-max-token-expiration}).
     *
     * @param max the maximum, at least ten minutes
     * @return this builder
     * @throws IllegalArgumentException when shorter than ten minutes
     */
    public Builder maxExpiration(Duration max) {
      if (max.compareTo(Duration.ofMinutes(10)) < 0) {
        throw new IllegalArgumentException(
            "service-account-max-token-expiration: must be at least 10m, not " + max);
      }
      this.maxExpiration = max;
      return this;
    }

    /**
     * Sets the clock tokens are stamped and checked with (the system clock by default).
     *
     * @param clock the clock
     * @return this builder
     */
    public Builder clock(Clock clock) {
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    /**
     * Builds the issuer; without a signing key it makes a P-256 key pair on first use.
     *
     * @return the issuer
     * @throws IllegalStateException when an EC signing key was read with no key file holding its
     *     public key
     */
    public ServiceAccountTokens build() {
      // Without a signing key the issuer makes a P-256 key pair on first use.
      if (signingKey != null && signingPublicKey == null) {
        signingPublicKey = matchingPublicKey();
      }
      return new ServiceAccountTokens(this);
    }

    private PublicKey matchingPublicKey() {
      ECPrivateKey ec = (ECPrivateKey) signingKey;
      for (PublicKey key : verificationKeys) {
        if (key instanceof ECPublicKey candidate && matches(ec, candidate)) {
          return candidate;
        }
      }
      throw new IllegalStateException(
          "service-account-signing-key-file: an EC key needs its public key in a"
              + " service-account-key-file");
    }

    /** Whether an EC public key belongs to a private key: a test signature verifies. */
    private static boolean matches(ECPrivateKey key, ECPublicKey candidate) {
      try {
        byte[] probe = "machinery".getBytes(StandardCharsets.US_ASCII);
        Signature sign = Signature.getInstance("SHA256withECDSA");
        sign.initSign(key);
        sign.update(probe);
        byte[] signature = sign.sign();
        Signature verify = Signature.getInstance("SHA256withECDSA");
        verify.initVerify(candidate);
        verify.update(probe);
        return verify.verify(signature);
      } catch (GeneralSecurityException e) {
        return false;
      }
    }

    private static PublicKey publicOf(RSAPrivateCrtKey key) {
      try {
        return KeyFactory.getInstance("RSA")
            .generatePublic(new RSAPublicKeySpec(key.getModulus(), key.getPublicExponent()));
      } catch (GeneralSecurityException e) {
        throw new IllegalStateException(e);
      }
    }

    private static String read(Path file) {
      try {
        return Files.readString(file, StandardCharsets.US_ASCII);
      } catch (IOException e) {
        throw new UncheckedIOException("cannot read the service account key " + file, e);
      }
    }

    private static List<PublicKey> publicKeys(String pem, String source) {
      List<PublicKey> keys = new ArrayList<>();
      for (Pem.Block block : Pem.decode(pem)) {
        try {
          switch (block.type()) {
            case "PUBLIC KEY" -> keys.add(publicKey(block.der()));
            case "CERTIFICATE" ->
                keys.add(
                    CertificateFactory.getInstance("X.509")
                        .generateCertificate(new ByteArrayInputStream(block.der()))
                        .getPublicKey());
            case "RSA PRIVATE KEY", "PRIVATE KEY" -> {
              PrivateKey key = PrivateKeys.fromPem(Pem.encode(block.type(), block.der()));
              if (key instanceof RSAPrivateCrtKey rsa) {
                keys.add(publicOf(rsa));
              }
            }
            default -> {
              // Other blocks carry no public key.
            }
          }
        } catch (GeneralSecurityException e) {
          throw new CertificateDataException(
              "service account key",
              source,
              "the PEM block \""
                  + block.type()
                  + "\" does not"
                  + " hold a public key: "
                  + e.getMessage(),
              e);
        }
      }
      if (keys.isEmpty()) {
        throw new CertificateDataException(
            "service account key", source, "no public key in " + source);
      }
      return keys;
    }

    private static PublicKey publicKey(byte[] der) throws GeneralSecurityException {
      try {
        return KeyFactory.getInstance("RSA").generatePublic(new X509EncodedKeySpec(der));
      } catch (GeneralSecurityException e) {
        return KeyFactory.getInstance("EC").generatePublic(new X509EncodedKeySpec(der));
      }
    }
  }
}
