package dev.machinery.unversioned.meta.v1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.Objects;

/**
 * The server address a client in a network should use.
 *
 * <p>Mutable; confine an instance to one thread or publish it safely after its last change.
 */
@JsonPropertyOrder({"clientCIDR", "serverAddress"})
public final class ServerAddressByClientCIDR {
  private String clientCIDR;
  private String serverAddress;

  /** Creates an empty ServerAddressByClientCIDR. */
  public ServerAddressByClientCIDR() {}

  /**
   * Returns the client network.
   *
   * @return the client network
   */
  @JsonInclude(JsonInclude.Include.ALWAYS)
  public String getClientCIDR() {
    return clientCIDR;
  }

  /**
   * Sets the client network.
   *
   * @param clientCIDR the client network
   */
  public void setClientCIDR(String clientCIDR) {
    this.clientCIDR = clientCIDR;
  }

  /**
   * Returns the address, {@code host} or {@code host:port}.
   *
   * @return the address, {@code host} or {@code host:port}
   */
  @JsonInclude(JsonInclude.Include.ALWAYS)
  public String getServerAddress() {
    return serverAddress;
  }

  /**
   * Sets the address, {@code host} or {@code host:port}.
   *
   * @param serverAddress the address, {@code host} or {@code host:port}
   */
  public void setServerAddress(String serverAddress) {
    this.serverAddress = serverAddress;
  }

  @Override
  public boolean equals(Object other) {
    if (!(other instanceof ServerAddressByClientCIDR)) {
      return false;
    }
    ServerAddressByClientCIDR that = (ServerAddressByClientCIDR) other;
    return true
        && Objects.equals(clientCIDR, that.clientCIDR)
        && Objects.equals(serverAddress, that.serverAddress);
  }

  @Override
  public int hashCode() {
    return Objects.hash(clientCIDR, serverAddress);
  }

  @Override
  public String toString() {
    return "ServerAddressByClientCIDR{"
        + "clientCIDR="
        + clientCIDR
        + ", serverAddress="
        + serverAddress
        + "}";
  }
}
