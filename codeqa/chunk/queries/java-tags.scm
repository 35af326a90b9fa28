; Java

; -- definitions -------------------------------------------------------------------------------------------------
(class_declaration name: (identifier) @name.definition.class)
(interface_declaration name: (identifier) @name.definition.interface)
(enum_declaration name: (identifier) @name.definition.enum)
(record_declaration name: (identifier) @name.definition.class)
(annotation_type_declaration name: (identifier) @name.definition.interface)
(method_declaration name: (identifier) @name.definition.method)
(constructor_declaration name: (identifier) @name.definition.method)

; -- references --------------------------------------------------------------------------------------------------
(method_invocation name: (identifier) @name.reference.call)
(method_reference (identifier) @name.reference.call .)
(object_creation_expression type: [(type_identifier) @name.reference.class (generic_type (type_identifier) @name.reference.class)])
(superclass (type_identifier) @name.reference.class)
(type_identifier) @name.reference.type
(identifier) @name.reference.identifier

; -- imports -----------------------------------------------------------------------------------------------------
(import_declaration (scoped_identifier) @import)
(import_declaration (scoped_identifier) @import.wildcard (asterisk))
(package_declaration (scoped_identifier) @namespace)
(package_declaration (identifier) @namespace)
