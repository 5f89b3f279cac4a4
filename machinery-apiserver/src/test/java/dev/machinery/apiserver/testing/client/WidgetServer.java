package dev.machinery.apiserver.testing.client;

import dev.machinery.apiserver.ApiServer;
import dev.machinery.apiserver.authentication.TokenFileAuthenticator;
import dev.machinery.apiserver.negotiation.ScaleAccessor;
import dev.machinery.apiserver.rbac.RbacV1;
import dev.machinery.apiserver.registry.rest.ResourceDefinition;
import dev.machinery.apiserver.registry.rest.ResourceList;
import dev.machinery.core.runtime.Scheme;
import dev.machinery.core.schema.GroupKind;
import dev.machinery.core.schema.GroupVersion;
import dev.machinery.unversioned.meta.v1.MetaV1;
import dev.machinery.unversioned.meta.v1.Scale;
import java.time.Duration;

/** The server the client tests drive: Widgets with status and scale, tokens for two users. */
public final class WidgetServer {
  public static final GroupVersion V1 = GroupVersion.of("test.machinery.dev", "v1");
  public static final String ADMIN_TOKEN = "admin-token";
  public static final String NOBODY_TOKEN = "nobody-token";

  public static final Scheme SCHEME =
      ResourceList.addToScheme(
              RbacV1.addToScheme(MetaV1.addToScheme(Scheme.builder()))
                  .addKnownTypes(V1, Widget.class),
              "Widget",
              V1)
          .build();

  private WidgetServer() {}

  public static ApiServer.Builder builder() {
    return ApiServer.builder(SCHEME)
        .addResource(
            ResourceDefinition.builder(GroupKind.of(V1.group(), "Widget"), true)
                .shortNames("wd")
                .statusSubresource()
                .tracksGeneration()
                .scaleSubresource(
                    Widget.class,
                    new ScaleAccessor<Widget>() {
                      @Override
                      public Scale read(Widget widget) {
                        Scale scale = new Scale();
                        scale.getMetadata().setName(widget.getMetadata().getName());
                        scale.getMetadata().setNamespace(widget.getMetadata().getNamespace());
                        scale.getSpec().setReplicas(widget.getSpec().getReplicas());
                        if (widget.getStatus() != null
                            && widget.getStatus().getReadyReplicas() != null) {
                          scale.getStatus().setReplicas(widget.getStatus().getReadyReplicas());
                        }
                        return scale;
                      }

                      @Override
                      public void write(Widget widget, Scale scale) {
                        widget.getSpec().setReplicas(scale.getSpec().getReplicas());
                      }
                    })
                .build())
        .bookmarkInterval(Duration.ofMillis(200))
        .authenticator(
            TokenFileAuthenticator.parse(
                ADMIN_TOKEN
                    + ",admin,uid-admin,\"system:masters\"\n"
                    + NOBODY_TOKEN
                    + ",nobody,uid-nobody\n"));
  }
}
