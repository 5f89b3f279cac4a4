package dev.machinery.storage.etcd;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.machinery.apiserver.storage.KeyValue;
import dev.machinery.apiserver.storage.ListResult;
import dev.machinery.apiserver.storage.QueuedWatch;
import dev.machinery.apiserver.storage.RevisionCheck;
import dev.machinery.apiserver.storage.Storage;
import dev.machinery.apiserver.storage.StorageException;
import dev.machinery.apiserver.storage.StorageWatch;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongFunction;
import javax.net.ssl.SSLContext;

/**
 * A {@link Storage} on etcd v3, as kube-apiserver keeps its objects: every key under a prefix
 * ({@code /registry/} by default, so that a ConfigMap's key {@code configmaps/NAMESPACE/NAME} is
 * {@code /registry/configmaps/NAMESPACE/NAME} in etcd, where kube-apiserver keeps it), the store's
 * revision etcd's, {@code create} a transaction on {@code create_revision == 0}, {@code update} and
 * {@code delete} transactions on {@code mod_revision}, lists range reads at a revision in pages,
 * watches etcd's own from a revision (resumed on another endpoint, or when the member comes back,
 * from the last revision delivered), and compaction etcd's, recorded under the key {@code
 * compact_rev_key} below the prefix (kube-apiserver's compactor writes that key at the root of
 * etcd's key space instead), so that every server on the same etcd knows the compacted revision.
 * That key is reserved: lists and watches leave it out.
 *
 * <p>By default it speaks etcd's JSON gateway ({@code /v3/kv/...}, {@code /v3/watch}) over HTTP/1.1
 * connections it keeps alive (watches over the JDK's HTTP client), so it needs nothing beyond the
 * JDK and Jackson. With {@link Builder#grpc(boolean)} its reads, writes, compactions and watches go
 * over etcd's gRPC API instead, as etcd's own clients and kube-apiserver send them, which costs
 * etcd about half the CPU a call; that needs Netty's HTTP/2 codec on the class path, which a server
 * on the Netty binding has. docs/storage-etcd.md says why and what each costs.
 *
 * <pre>{@code
 * Storage storage = EtcdStorage.builder(URI.create("http://127.0.0.1:2379"))
 *     .prefix("/machinery/")
 *     .build();
 * ApiServer server = ApiServer.builder(scheme).storage(storage)...build();
 * }</pre>
 *
 * <p>Thread-safe: every call is one request to etcd; watches run on threads of their own.
 */
public final class EtcdStorage implements Storage {
  /** The key, below the prefix, under which compactions are recorded. */
  public static final String COMPACT_REVISION_KEY = "compact_rev_key";

  private final EtcdClient client;
  private final String prefix;
  private final String compactKey;
  private final int watchQueueLimit;
  private final Duration resumeFor;
  private final EtcdLeases leases;
  private final Set<QueuedWatch> watches = ConcurrentHashMap.newKeySet();
  private volatile boolean closed;

  private EtcdStorage(Builder builder) {
    this.client =
        new EtcdClient(
            builder.endpoints,
            builder.requestTimeout,
            builder.grpc,
            builder.keepAliveTime,
            builder.keepAliveTimeout,
            builder.tls());
    this.leases = new EtcdLeases(client);
    this.prefix = builder.prefix;
    this.compactKey = prefix + COMPACT_REVISION_KEY;
    this.watchQueueLimit = builder.watchQueueLimit;
    this.resumeFor = builder.resumeFor;
  }

  /**
   * Starts a builder over etcd's client endpoints.
   *
   * @param endpoints the endpoints, such as {@code http://127.0.0.1:2379}; tried in turn
   * @return the builder
   * @throws IllegalArgumentException if none is given
   */
  public static Builder builder(URI... endpoints) {
    return new Builder(List.of(endpoints));
  }

  /**
   * Returns the prefix every key is stored under.
   *
   * @return the prefix
   */
  public String prefix() {
    return prefix;
  }

  @Override
  public long currentRevision() {
    open();
    ObjectNode range = EtcdClient.object();
    range.put("key", EtcdClient.base64(compactKey));
    range.put("count_only", true);
    return EtcdClient.revision(client.call("/v3/kv/range", range));
  }

  @Override
  public long compactedRevision() {
    open();
    ObjectNode range = EtcdClient.object();
    range.put("key", EtcdClient.base64(compactKey));
    JsonNode kvs = client.call("/v3/kv/range", range).path("kvs");
    if (kvs.isEmpty()) {
      return 0;
    }
    String text = new String(EtcdClient.bytes(kvs.get(0).get("value")), StandardCharsets.UTF_8);
    try {
      return Long.parseLong(text);
    } catch (NumberFormatException e) {
      throw EtcdClient.unavailable(
          "the compacted revision under " + compactKey + " is not a number: " + text);
    }
  }

  @Override
  public Optional<KeyValue> get(String key) {
    open();
    ObjectNode range = EtcdClient.object();
    range.put("key", EtcdClient.base64(prefix + key));
    JsonNode kvs = client.call("/v3/kv/range", range).path("kvs");
    return kvs.isEmpty() ? Optional.empty() : Optional.of(EtcdClient.keyValue(kvs.get(0), prefix));
  }

  @Override
  public ListResult list(String prefix, long revision, String startKey, int limit) {
    open();
    byte[] full = (this.prefix + prefix).getBytes(StandardCharsets.UTF_8);
    ObjectNode range = EtcdClient.object();
    range.put(
        "key",
        startKey == null ? EtcdClient.base64(full) : EtcdClient.base64(this.prefix + startKey));
    range.put("range_end", EtcdClient.base64(EtcdClient.prefixEnd(full)));
    if (revision > 0) {
      range.put("revision", Long.toString(revision));
    }
    if (limit > 0) {
      // One more than asked: the reserved compaction key may be among them.
      range.put("limit", Long.toString(limit + 1L));
    }
    JsonNode answer;
    try {
      answer = client.call("/v3/kv/range", range);
    } catch (StorageException e) {
      throw withKey(e, prefix, revision);
    }
    List<KeyValue> items = new ArrayList<>();
    for (JsonNode kv : answer.path("kvs")) {
      if (EtcdClient.text(kv.path("key")).equals(compactKey)) {
        continue;
      }
      if (limit > 0 && items.size() == limit) {
        break;
      }
      items.add(EtcdClient.keyValue(kv, this.prefix));
    }
    // etcd counts every key of the range from the start key, whatever the limit.
    long inRange = answer.path("count").asLong(0);
    String from = startKey == null ? this.prefix + prefix : this.prefix + startKey;
    if (compactKey.startsWith(this.prefix + prefix) && compactKey.compareTo(from) >= 0) {
      inRange--;
    }
    long remaining = Math.max(0, inRange - items.size());
    return new ListResult(
        items, revision > 0 ? revision : EtcdClient.revision(answer), remaining > 0, remaining);
  }

  /**
   * True: a count and a keys-only range tell ({@link #unchangedSince}).
   *
   * @return true
   */
  @Override
  public boolean tellsUnchanged() {
    return true;
  }

  /**
   * The current revision, read with a count of one key (what {@link #currentRevision()} asks, which
   * etcd answers without walking any range); when the store is ahead of {@code afterRevision}, one
   * transaction of two ranges, neither reading a value, both at the revision the transaction reads
   * (its header's, the current one): the count of keys under the prefix, and the first key modified
   * after {@code afterRevision} (etcd's {@code min_mod_revision}, keys only). The same count and no
   * key modified since means nothing was created, changed or deleted: a delete alone lowers the
   * count, anything else is a modification. Both ranges walk the prefix's keys in etcd's index, so
   * they are asked only when the revision moved. A transaction of ranges only is a read: etcd
   * answers it as it answers a range, without a write to its log.
   */
  @Override
  public RevisionCheck checkUnchanged(String prefix, long afterRevision, long keysAtAfter) {
    open();
    long current = currentRevision();
    if (current <= afterRevision) {
      return new RevisionCheck(current, true);
    }
    if (compactKey.startsWith(this.prefix + prefix)) {
      // The store's own bookkeeping key is under it: the count cannot be compared.
      return new RevisionCheck(current, false);
    }
    byte[] full = (this.prefix + prefix).getBytes(StandardCharsets.UTF_8);
    ObjectNode count = EtcdClient.object();
    count.put("key", EtcdClient.base64(full));
    count.put("range_end", EtcdClient.base64(EtcdClient.prefixEnd(full)));
    count.put("count_only", true);
    ObjectNode modified = EtcdClient.object();
    modified.put("key", EtcdClient.base64(full));
    modified.put("range_end", EtcdClient.base64(EtcdClient.prefixEnd(full)));
    modified.put("keys_only", true);
    modified.put("min_mod_revision", Long.toString(afterRevision + 1));
    modified.put("limit", "1");
    ObjectNode txn = EtcdClient.object();
    ArrayNode success = txn.putArray("success");
    success.addObject().set("request_range", count);
    success.addObject().set("request_range", modified);
    JsonNode answer = client.call("/v3/kv/txn", txn);
    JsonNode responses = answer.path("responses");
    long keys = responses.path(0).path("response_range").path("count").asLong(0);
    boolean none = responses.path(1).path("response_range").path("kvs").isEmpty();
    return new RevisionCheck(EtcdClient.revision(answer), keys == keysAtAfter && none);
  }

  /**
   * Two range requests, neither reading a value: the count of keys under the prefix at {@code
   * atRevision}, then the first keys modified after {@code afterRevision} (etcd's {@code
   * min_mod_revision}, keys only), with the meaning {@link #checkUnchanged} gives them.
   */
  @Override
  public boolean unchangedSince(
      String prefix, long afterRevision, long atRevision, long keysAtAfter) {
    open();
    if (atRevision < afterRevision) {
      throw new IllegalArgumentException(
          "atRevision " + atRevision + " is before afterRevision " + afterRevision);
    }
    if (atRevision == afterRevision) {
      return true;
    }
    if (compactKey.startsWith(this.prefix + prefix)) {
      // The store's own bookkeeping key is under it: the count cannot be compared.
      return false;
    }
    byte[] full = (this.prefix + prefix).getBytes(StandardCharsets.UTF_8);
    try {
      ObjectNode count = EtcdClient.object();
      count.put("key", EtcdClient.base64(full));
      count.put("range_end", EtcdClient.base64(EtcdClient.prefixEnd(full)));
      count.put("revision", Long.toString(atRevision));
      count.put("count_only", true);
      long keys = client.call("/v3/kv/range", count).path("count").asLong(0);
      if (keys != keysAtAfter) {
        return false;
      }
      ObjectNode modified = EtcdClient.object();
      modified.put("key", EtcdClient.base64(full));
      modified.put("range_end", EtcdClient.base64(EtcdClient.prefixEnd(full)));
      modified.put("revision", Long.toString(atRevision));
      modified.put("keys_only", true);
      modified.put("min_mod_revision", Long.toString(afterRevision + 1));
      modified.put("limit", "1");
      return client.call("/v3/kv/range", modified).path("kvs").isEmpty();
    } catch (StorageException e) {
      return false;
    }
  }

  @Override
  public KeyValue create(String key, byte[] value, long ttlSeconds) {
    open();
    byte[] copy = value.clone();
    String full = prefix + key;
    JsonNode answer =
        onLease(
            ttlSeconds,
            lease ->
                txn(
                    compare(full, "CREATE", "EQUAL", "create_revision", 0),
                    put(full, copy, false, lease),
                    rangeOf(full)));
    if (!answer.path("succeeded").asBoolean(false)) {
      throw new StorageException(
          StorageException.Kind.KEY_EXISTS,
          key,
          currentModRevision(answer),
          "key " + key + " already exists");
    }
    long revision = EtcdClient.revision(answer);
    return new KeyValue(key, copy, revision, revision, 1);
  }

  @Override
  public KeyValue update(String key, long expectedModRevision, byte[] value, long ttlSeconds) {
    open();
    byte[] copy = value.clone();
    String full = prefix + key;
    JsonNode answer =
        onLease(
            ttlSeconds,
            lease ->
                txn(
                    expected(full, expectedModRevision),
                    put(full, copy, true, lease),
                    rangeOf(full)));
    if (!answer.path("succeeded").asBoolean(false)) {
      throw refused(key, expectedModRevision, answer);
    }
    JsonNode previous = answer.path("responses").path(0).path("response_put").path("prev_kv");
    return new KeyValue(
        key,
        copy,
        EtcdClient.number(previous.path("create_revision")),
        EtcdClient.revision(answer),
        EtcdClient.number(previous.path("version")) + 1);
  }

  @Override
  public KeyValue delete(String key, long expectedModRevision) {
    open();
    String full = prefix + key;
    ObjectNode delete = EtcdClient.object();
    ObjectNode request = delete.putObject("request_delete_range");
    request.put("key", EtcdClient.base64(full));
    request.put("prev_kv", true);
    JsonNode answer = txn(expected(full, expectedModRevision), delete, rangeOf(full));
    if (!answer.path("succeeded").asBoolean(false)) {
      throw refused(key, expectedModRevision, answer);
    }
    JsonNode previous =
        answer.path("responses").path(0).path("response_delete_range").path("prev_kvs").path(0);
    if (previous.isMissingNode()) {
      throw notFound(key);
    }
    return new KeyValue(
        key,
        EtcdClient.bytes(previous.get("value")),
        EtcdClient.number(previous.path("create_revision")),
        EtcdClient.revision(answer),
        EtcdClient.number(previous.path("version")));
  }

  @Override
  public StorageWatch watch(String prefix, long afterRevision) {
    open();
    long after = afterRevision > 0 ? afterRevision : currentRevision();
    long compacted = compactedRevision();
    if (after < compacted) {
      throw new StorageException(
          StorageException.Kind.COMPACTED,
          prefix,
          compacted,
          "changes after revision "
              + after
              + " are compacted; the oldest kept follow revision "
              + compacted);
    }
    EtcdWatch watch =
        new EtcdWatch(
            client,
            this.prefix,
            prefix,
            compactKey,
            after,
            watchQueueLimit,
            resumeFor,
            watches::remove);
    watches.add(watch.queue());
    try {
      watch.start();
    } catch (RuntimeException e) {
      watches.remove(watch.queue());
      throw e;
    }
    return watch.queue();
  }

  @Override
  public void compact(long revision) {
    open();
    ObjectNode compaction = EtcdClient.object();
    compaction.put("revision", Long.toString(revision));
    compaction.put("physical", true);
    try {
      client.call("/v3/kv/compaction", compaction);
    } catch (StorageException e) {
      if (e.kind() != StorageException.Kind.COMPACTED) {
        throw e;
      }
      // Compacted at or after this revision already (by another server): nothing to record.
      return;
    }
    ObjectNode record = EtcdClient.object();
    record.put("key", EtcdClient.base64(compactKey));
    record.put(
        "value", EtcdClient.base64(Long.toString(revision).getBytes(StandardCharsets.UTF_8)));
    client.call("/v3/kv/put", record);
  }

  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    client.close();
    for (QueuedWatch watch : List.copyOf(watches)) {
      watch.end(EtcdClient.unavailable("the storage was closed"));
    }
  }

  private void open() {
    if (closed) {
      throw EtcdClient.unavailable("the storage is closed");
    }
  }

  // ---- transactions

  private JsonNode txn(ObjectNode compare, ObjectNode success, ObjectNode failure) {
    ObjectNode txn = EtcdClient.object();
    txn.putArray("compare").add(compare);
    txn.putArray("success").add(success);
    ArrayNode otherwise = txn.putArray("failure");
    otherwise.add(failure);
    return client.call("/v3/kv/txn", txn);
  }

  private static ObjectNode compare(
      String key, String target, String result, String field, long value) {
    ObjectNode compare = EtcdClient.object();
    compare.put("key", EtcdClient.base64(key));
    compare.put("target", target);
    compare.put("result", result);
    compare.put(field, Long.toString(value));
    return compare;
  }

  /** The key is at the revision read, or (for 0) exists at all. */
  private static ObjectNode expected(String key, long expectedModRevision) {
    return expectedModRevision > 0
        ? compare(key, "MOD", "EQUAL", "mod_revision", expectedModRevision)
        : compare(key, "CREATE", "GREATER", "create_revision", 0);
  }

  /**
   * A put; with a lease of 0 the key has none (a lease it had is let go of, as etcd does for a put
   * without one).
   */
  private static ObjectNode put(String key, byte[] value, boolean previous, long lease) {
    ObjectNode put = EtcdClient.object();
    ObjectNode request = put.putObject("request_put");
    request.put("key", EtcdClient.base64(key));
    request.put("value", EtcdClient.base64(value));
    if (previous) {
      request.put("prev_kv", true);
    }
    if (lease != 0) {
      request.put("lease", Long.toString(lease));
    }
    return put;
  }

  /**
   * Makes a write with the lease of a key written now with a time to live ({@link EtcdLeases}), or
   * with 0 for none. A lease etcd no longer knows (revoked, or etcd restored from before it) fails
   * the whole transaction, so the write is made once more on a new lease.
   */
  private JsonNode onLease(long ttlSeconds, LongFunction<JsonNode> write) {
    if (ttlSeconds < 0) {
      throw new IllegalArgumentException(
          "a time to live is 0 (none) or a number of seconds, not " + ttlSeconds);
    }
    if (ttlSeconds == 0) {
      return write.apply(0);
    }
    long lease = leases.leaseFor(ttlSeconds);
    try {
      return write.apply(lease);
    } catch (StorageException e) {
      if (!String.valueOf(e.getMessage()).contains(LEASE_NOT_FOUND)) {
        throw e;
      }
      leases.forget(lease);
      return write.apply(leases.leaseFor(ttlSeconds));
    }
  }

  /** etcd's error for a put on a lease it does not know ({@code rpctypes.ErrLeaseNotFound}). */
  private static final String LEASE_NOT_FOUND = "requested lease not found";

  private static ObjectNode rangeOf(String key) {
    ObjectNode range = EtcdClient.object();
    range.putObject("request_range").put("key", EtcdClient.base64(key));
    return range;
  }

  /** Why a guarded write failed: the key is gone, or it changed since it was read. */
  private static StorageException refused(String key, long expected, JsonNode answer) {
    JsonNode kvs = answer.path("responses").path(0).path("response_range").path("kvs");
    if (kvs.isEmpty()) {
      return notFound(key);
    }
    long current = EtcdClient.number(kvs.get(0).path("mod_revision"));
    return new StorageException(
        StorageException.Kind.CONFLICT,
        key,
        current,
        "key " + key + " is at revision " + current + ", not " + expected);
  }

  private static long currentModRevision(JsonNode answer) {
    JsonNode kvs = answer.path("responses").path(0).path("response_range").path("kvs");
    return kvs.isEmpty() ? 0 : EtcdClient.number(kvs.get(0).path("mod_revision"));
  }

  private static StorageException notFound(String key) {
    return new StorageException(
        StorageException.Kind.KEY_NOT_FOUND, key, 0, "key " + key + " not found");
  }

  private static StorageException withKey(StorageException e, String prefix, long revision) {
    if (e.kind() != StorageException.Kind.COMPACTED) {
      return e;
    }
    return new StorageException(
        StorageException.Kind.COMPACTED,
        prefix,
        revision,
        "revision " + revision + " of " + prefix + " is compacted: " + e.getMessage());
  }

  /** Collects the endpoints, prefix and limits. Not thread-safe. */
  public static final class Builder {
    private final List<URI> endpoints;
    private String prefix = "/registry/";
    private Duration requestTimeout = Duration.ofSeconds(10);
    private int watchQueueLimit = 10_000;
    private Duration resumeFor = Duration.ofSeconds(30);
    private boolean grpc;
    private Duration keepAliveTime = EtcdClient.KEEP_ALIVE_TIME;
    private Duration keepAliveTimeout = EtcdClient.KEEP_ALIVE_TIMEOUT;
    private SSLContext tlsContext;
    private Path caFile;
    private Path certFile;
    private Path keyFile;

    private Builder(List<URI> endpoints) {
      if (endpoints.isEmpty()) {
        throw new IllegalArgumentException("etcd storage needs at least one endpoint");
      }
      for (URI endpoint : endpoints) {
        Objects.requireNonNull(endpoint, "endpoint");
        if (!("http".equals(endpoint.getScheme()) || "https".equals(endpoint.getScheme()))
            || endpoint.getHost() == null) {
          throw new IllegalArgumentException(
              "an etcd endpoint is http://host:port or https://host:port, not \""
                  + endpoint
                  + "\"");
        }
      }
      this.endpoints = List.copyOf(endpoints);
    }

    /**
     * Sets the prefix every key is stored under ({@code /registry/} by default, as kube-apiserver's
     * {@code --etcd-prefix}), applied once to the keys the server's registry lays out ({@code
     * dev.machinery.apiserver.storage.StorageKeys}): with {@code /registry/}, a ConfigMap is at
     * {@code /registry/configmaps/NAMESPACE/NAME}. As kube-apiserver joins the prefix and the key
     * as paths, a prefix that does not end in {@code /} gets one: {@code /registry} and {@code
     * /registry/} are the same prefix.
     *
     * @param prefix the prefix
     * @return this builder
     */
    public Builder prefix(String prefix) {
      Objects.requireNonNull(prefix, "prefix");
      this.prefix = prefix.endsWith("/") ? prefix : prefix + "/";
      return this;
    }

    /**
     * Sets how long etcd may keep a request waiting (10 s by default): to connect, and then for
     * each read of its answer (a watch waits for events as long as it is open).
     *
     * @param timeout the timeout
     * @return this builder
     */
    public Builder requestTimeout(Duration timeout) {
      if (timeout.isNegative() || timeout.isZero()) {
        throw new IllegalArgumentException("the request timeout must be positive");
      }
      this.requestTimeout = timeout;
      return this;
    }

    /**
     * Sets how many changes a watcher may fall behind before its watch is ended (10,000 by
     * default).
     *
     * @param limit the limit
     * @return this builder
     */
    public Builder watchQueueLimit(int limit) {
      if (limit <= 0) {
        throw new IllegalArgumentException("the watch queue limit must be positive");
      }
      this.watchQueueLimit = limit;
      return this;
    }

    /**
     * Sets how long a watch whose stream broke keeps trying to resume on the endpoints before it
     * ends with {@code UNAVAILABLE} (30 s by default).
     *
     * @param duration the duration
     * @return this builder
     */
    public Builder resumeFor(Duration duration) {
      if (duration.isNegative()) {
        throw new IllegalArgumentException("the resume duration must not be negative");
      }
      this.resumeFor = duration;
      return this;
    }

    /**
     * Sets how a member that died without a word is found (a member gone, hung, or cut off by the
     * network, with no reset to tell); by default 30 s and 10 s, as kube-apiserver's etcd client.
     * Over gRPC: while calls or watches are open on a connection and nothing has been read for
     * {@code time}, an HTTP/2 PING is sent, and the connection is closed when nothing is read for
     * {@code timeout} after it. On the gateway: when a watch has heard nothing for {@code time},
     * its endpoint is asked a count of one key on a new connection, and every watch on it is closed
     * when that is not answered within {@code timeout}. A closed watch resumes on whichever
     * endpoint answers, from the revision it had reached; calls go out on new connections.
     *
     * @param time how long nothing is heard before the probe
     * @param timeout how long the probe may go unanswered
     * @return this builder
     */
    public Builder keepAlive(Duration time, Duration timeout) {
      if (time.isNegative() || time.isZero() || timeout.isNegative() || timeout.isZero()) {
        throw new IllegalArgumentException(
            "the keepalive's time and timeout must be positive, not " + time + " and " + timeout);
      }
      this.keepAliveTime = time;
      this.keepAliveTimeout = timeout;
      return this;
    }

    /**
     * Sets whether reads, writes, compactions and watches go over etcd's gRPC API (one HTTP/2
     * connection an endpoint, in cleartext, as etcd serves gRPC beside its gateway on the client
     * port; each call and each watch a stream on it) rather than through its JSON gateway (the
     * default). Over gRPC etcd is spared the gateway's translation of every call into a gRPC call
     * to itself.
     *
     * @param grpc true for etcd's gRPC API
     * @return this builder
     * @throws IllegalStateException when {@code grpc} is true and Netty's HTTP/2 codec ({@code
     *     io.netty:netty-codec-http2}, an optional dependency of this module) is not on the class
     *     path
     */
    public Builder grpc(boolean grpc) {
      if (grpc) {
        try {
          Class.forName(
              "io.netty.handler.codec.http2.Http2FrameCodecBuilder",
              false,
              EtcdStorage.class.getClassLoader());
        } catch (ClassNotFoundException | LinkageError e) {
          throw new IllegalStateException(
              "etcd's gRPC API needs Netty's HTTP/2 codec (io.netty:netty-codec-http2) on the"
                  + " class path; without it, leave grpc(false) and the JSON gateway is used",
              e);
        }
      }
      this.grpc = grpc;
      return this;
    }

    /**
     * Sets the files of TLS to {@code https} endpoints, as kube-apiserver's {@code --etcd-cafile},
     * {@code --etcd-certfile} and {@code --etcd-keyfile}: the authorities that sign the members'
     * certificates, and the certificate (and its key) this client presents, as an etcd started with
     * {@code --client-cert-auth} asks. They are read by {@link #build()}. Each member's certificate
     * must name the host its endpoint gives (an IP address among its IP addresses). Replaces a
     * context given to {@link #tls(SSLContext)}.
     *
     * @param caFile PEM certificates of the trusted authorities, or null for the JDK's
     * @param certFile this client's PEM certificate chain, or null to present none
     * @param keyFile the certificate's PEM private key (RSA or EC, PKCS#8, PKCS#1 or SEC1), or null
     *     to present none
     * @return this builder
     */
    public Builder tls(Path caFile, Path certFile, Path keyFile) {
      this.caFile = caFile;
      this.certFile = certFile;
      this.keyFile = keyFile;
      this.tlsContext = null;
      return this;
    }

    /**
     * Sets the TLS context of {@code https} endpoints: the authorities it trusts and the key it
     * presents (the JDK's default context when none is set). Each member's certificate must name
     * the host its endpoint gives. Replaces files given to {@link #tls(Path, Path, Path)}.
     *
     * @param context the context
     * @return this builder
     */
    public Builder tls(SSLContext context) {
      this.tlsContext = Objects.requireNonNull(context, "context");
      this.caFile = null;
      this.certFile = null;
      this.keyFile = null;
      return this;
    }

    private EtcdTls tls() {
      if (tlsContext != null) {
        return new EtcdTls(tlsContext);
      }
      if (caFile == null && certFile == null && keyFile == null) {
        return EtcdTls.DEFAULT;
      }
      return EtcdTls.fromFiles(caFile, certFile, keyFile);
    }

    /**
     * Builds the storage; nothing is sent to etcd until the first call.
     *
     * @return the storage
     * @throws IllegalArgumentException when a TLS file given to {@link #tls(Path, Path, Path)}
     *     cannot be read, holds no certificate or key, or the key is not the certificate's (the
     *     message names the file), or when only one of the certificate and its key is given
     */
    public EtcdStorage build() {
      return new EtcdStorage(this);
    }
  }
}
