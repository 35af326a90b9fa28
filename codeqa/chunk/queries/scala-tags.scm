; Scala

; -- definitions -------------------------------------------------------------------------------------------------
(class_definition name: (identifier) @name.definition.class)
(object_definition name: (identifier) @name.definition.class)
(trait_definition name: (identifier) @name.definition.interface)
(function_definition name: (identifier) @name.definition.function)
(function_declaration name: (identifier) @name.definition.function)
(type_definition name: (type_identifier) @name.definition.type)

; -- references --------------------------------------------------------------------------------------------------
(call_expression function: (identifier) @name.reference.call)
(call_expression function: (field_expression field: (identifier) @name.reference.call))
(instance_expression (type_identifier) @name.reference.class)
(extends_clause type: (type_identifier) @name.reference.class)
(type_identifier) @name.reference.type
(identifier) @name.reference.identifier

; -- imports -----------------------------------------------------------------------------------------------------
; a path is written as separate identifiers: each is a part; `{A, B}` and `_` are what the statement imports
(import_declaration (identifier) @import.part)
(import_declaration (namespace_selectors [(identifier) (arrow_renamed_identifier name: (identifier))] @import.name))
(import_declaration (namespace_wildcard) @import.name)
(package_clause name: (package_identifier) @namespace)
