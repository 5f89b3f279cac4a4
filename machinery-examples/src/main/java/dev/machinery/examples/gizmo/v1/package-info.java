/**
 * Version v1 of the Gizmo API. Conversions to and from the internal form are generated; {@link
 * dev.machinery.examples.gizmo.v1.GizmoConversions} holds the hand-written part (owner is the
 * internal maintainer).
 */
@GenerateConversions(
    internalPackage = "dev.machinery.examples.gizmo.internal",
    uses = StandardConversions.class)
package dev.machinery.examples.gizmo.v1;

import dev.machinery.conversion.GenerateConversions;
import dev.machinery.conversion.StandardConversions;
