package dev.machinery.apiserver.authorization.v1;

import dev.machinery.conversion.ProtoField;
import java.util.List;
import java.util.Map;

/**
 * The question of a SubjectAccessReview: a request (exactly one of the two) and who makes it (a
 * user, groups or both). Immutable.
 *
 * @param resourceAttributes a resource request, or {@code null}
 * @param nonResourceAttributes a non-resource request, or {@code null}
 * @param user the user's name, or {@code null}
 * @param groups the user's groups, or {@code null}
 * @param extra the user's extra attributes, or {@code null} (JSON only: the protobuf encoding
 *     leaves them out)
 * @param uid the user's uid, or {@code null}
 */
public record SubjectAccessReviewSpec(
    @ProtoField(value = 1, optional = true) ResourceAttributes resourceAttributes,
    @ProtoField(value = 2, optional = true) NonResourceAttributes nonResourceAttributes,
    @ProtoField(3) String user,
    @ProtoField(4) List<String> groups,
    Map<String, List<String>> extra,
    @ProtoField(6) String uid) {}
