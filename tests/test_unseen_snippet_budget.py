# ruff: noqa: E501 - the fixture is the real code, lines as long as they are
"""A long lead source lost its decision to the line cap (issue #35, class 6: the key line cut from a snippet).

Found on dev 183 (tag ``s52j``): eladmin, "How does user authentication flow through the system?" opened on
``AuthController.login`` (``eladmin-system/.../security/rest/AuthController.java:77-116``, 40 lines) and showed 12
of its lines, the cap of one source: the captcha check, the user loaded, the token made, the answer returned, but not
``if (!passwordEncoder.matches(password, jwtUser.getPassword())) {`` (line 96), where the password is checked. The
cap is now 14 lines (``LINES_MOST``) and the answer's key lines 40 (``KEY_LINES``, was 38), chosen on dev 183.

Same class, under "More places": opengist, the same question, folded ``TryAuthentication``
(``internal/auth/try_login.go:22-39``) to its two best lines, its signature and the last resort
``return nil, AuthError{"no authentication method available"}``; the line that signs in with the password,
``return tryDbLogin(user, password)`` (line 32), was cut. A folded source now shows three lines (``LINES_FOLDED``), on
its one line of the answer.
"""

from __future__ import annotations

from codeqa.answer.explanation.code.keylines import question_terms
from codeqa.answer.explanation.explain import KEY_LINES, LINES_FOLDED, LINES_LEAST, LINES_MOST
from codeqa.answer.explanation.sources.budget import allocate_lines
from codeqa.answer.explanation.sources.choose import source_lines
from codeqa.records import Chunk
from codeqa.retrieve.question import Question

# elunez/eladmin eladmin-system/src/main/java/me/zhengjie/modules/security/rest/AuthController.java:77-116
ELADMIN_LOGIN = """    @Log("用户登录")
    @ApiOperation("登录授权")
    @AnonymousPostMapping(value = "/login")
    public ResponseEntity<Object> login(@Validated @RequestBody AuthUserDto authUser, HttpServletRequest request) throws Exception {
        // 密码解密
        String password = RsaUtils.decryptByPrivateKey(RsaProperties.privateKey, authUser.getPassword());
        // 查询验证码
        String code = redisUtils.get(authUser.getUuid(), String.class);
        // 清除验证码
        redisUtils.del(authUser.getUuid());
        if (StringUtils.isBlank(code)) {
            throw new BadRequestException("验证码不存在或已过期");
        }
        if (StringUtils.isBlank(authUser.getCode()) || !authUser.getCode().equalsIgnoreCase(code)) {
            throw new BadRequestException("验证码错误");
        }
        // 获取用户信息
        JwtUserDto jwtUser = userDetailsService.loadUserByUsername(authUser.getUsername());
        // 验证用户密码
        if (!passwordEncoder.matches(password, jwtUser.getPassword())) {
            throw new BadRequestException("登录密码错误");
        }
        Authentication authentication = new UsernamePasswordAuthenticationToken(jwtUser, null, jwtUser.getAuthorities());
        SecurityContextHolder.getContext().setAuthentication(authentication);
        // 生成令牌
        String token = tokenProvider.createToken(jwtUser);
        // 返回 token 与 用户信息
        Map<String, Object> authInfo = new HashMap<String, Object>(2) {{
            put("token", properties.getTokenStartWith() + token);
            put("user", jwtUser);
        }};
        if (loginProperties.isSingleLogin()) {
            // 踢掉之前已经登录的token
            onlineUserService.kickOutForUsername(authUser.getUsername());
        }
        // 保存在线信息
        onlineUserService.save(jwtUser, token, request);
        // 返回登录信息
        return ResponseEntity.ok(authInfo);
    }"""


def test_the_lead_sign_in_handler_shows_where_the_password_is_checked():
    chunk = Chunk("AuthController.java", "java", 77, 77 + ELADMIN_LOGIN.count("\n"), ELADMIN_LOGIN,
                  "AuthController.login", "method", "api")  # fmt: skip
    terms = question_terms(Question.parse("How does user authentication flow through the system?"))
    (count,) = allocate_lines(terms, [(chunk, [])], KEY_LINES, LINES_LEAST, LINES_MOST)
    shown = {line.line: line.text.strip() for line in source_lines(terms, chunk, [], count)}
    assert count == 14
    assert shown[96] == "if (!passwordEncoder.matches(password, jwtUser.getPassword())) {"
    assert 115 in shown  # the answer returned stays


# thomiceli/opengist internal/auth/try_login.go:22-39
OPENGIST_TRY = """func TryAuthentication(username, password string) (*db.User, error) {
	user, err := db.GetUserByUsername(username)
	if err != nil {
		if !errors.Is(err, gorm.ErrRecordNotFound) {
			log.Error().Err(err).Msgf("Cannot get user by username %s", username)
			return nil, err
		}
	}

	if user.Password != "" {
		return tryDbLogin(user, password)
	} else {
		if ldap.Enabled() {
			return tryLdapLogin(username, password)
		}
		return nil, AuthError{"no authentication method available"}
	}
}"""


def test_a_folded_source_shows_the_password_sign_in():
    chunk = Chunk("internal/auth/try_login.go", "go", 22, 22 + OPENGIST_TRY.count("\n"), OPENGIST_TRY,
                  "TryAuthentication", "function", "core")  # fmt: skip
    terms = question_terms(Question.parse("How does user authentication flow through the system?"))
    shown = [line.text.strip() for line in source_lines(terms, chunk, [], LINES_FOLDED)]
    assert "return tryDbLogin(user, password)" in shown
    assert len(shown) == LINES_FOLDED  # its one line holds the folded lines, no more
