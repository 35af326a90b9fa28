; Kotlin

; -- definitions -------------------------------------------------------------------------------------------------
(class_declaration (type_identifier) @name.definition.class)
(object_declaration (type_identifier) @name.definition.class)
(function_declaration . (simple_identifier) @name.definition.function)
(type_alias (type_identifier) @name.definition.type)

; -- references --------------------------------------------------------------------------------------------------
(call_expression . (simple_identifier) @name.reference.call)
(call_expression . (navigation_expression (navigation_suffix (simple_identifier) @name.reference.call) .))
(delegation_specifier [(user_type (type_identifier) @name.reference.class) (constructor_invocation (user_type (type_identifier) @name.reference.class))])
(type_identifier) @name.reference.type
(simple_identifier) @name.reference.identifier

; -- imports -----------------------------------------------------------------------------------------------------
(import_header (identifier) @import)
(import_header (identifier) @import.wildcard (wildcard_import))
(package_header (identifier) @namespace)
