/** Version v2 of the Gizmo API; its conversions are entirely generated. */
@GenerateConversions(
    internalPackage = "dev.machinery.examples.gizmo.internal",
    uses = StandardConversions.class)
package dev.machinery.examples.gizmo.v2;

import dev.machinery.conversion.GenerateConversions;
import dev.machinery.conversion.StandardConversions;
