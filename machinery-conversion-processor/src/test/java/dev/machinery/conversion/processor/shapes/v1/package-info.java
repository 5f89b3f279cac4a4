/** The external version v1 of the shapes API. */
@GenerateConversions(
    internalPackage = "dev.machinery.conversion.processor.shapes.internal",
    uses = StandardConversions.class)
package dev.machinery.conversion.processor.shapes.v1;

import dev.machinery.conversion.GenerateConversions;
import dev.machinery.conversion.StandardConversions;
