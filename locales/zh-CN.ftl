# 楚河 — 简体中文
language-name = 简体中文

menu-file = 文件
menu-edit = 编辑
menu-view = 视图
menu-engine = 引擎
menu-language = 语言

file-new = 新对局
file-open = 打开…
file-open-folder = 打开文件夹…
file-previous = 文件夹中上一个文件
file-next = 文件夹中下一个文件
file-save = 保存
file-save-as = 另存为…
file-copy-fen = 复制 FEN
file-copy-pgn = 复制 PGN
file-quit = 退出
file-recent = 最近打开
file-recent-none = 没有最近打开的文件
file-paste-hint = Ctrl+V 粘贴 FEN 或 PGN；也可以把文件拖到窗口上
file-untitled = 未命名
filter-games = 棋谱文件

edit-undo = 撤销
edit-redo = 重做
edit-promote = 变着上移
edit-main-line = 设为主线
edit-delete-from = 从此处删除
edit-clear-marks = 清除箭头和圆圈
edit-marks-hint = 右键拖动画箭头，右键单击画圆圈。Shift 红色，Alt 蓝色，Shift+Alt 黄色，不按为绿色
comment-label = 注释
comment-hint = 本着注释

view-flip = 翻转棋盘
view-destinations = 显示可走位置
view-board-only = 只显示棋盘
view-coordinates = 坐标
view-theme = 棋盘风格
view-notation = 记谱法
coordinates-chinese = 中文纵线编号
coordinates-iccs = ICCS（a–i，0–9）
theme-wood = 传统木纹
theme-high-contrast = 高对比度
notation-chinese = 中文（简体）
notation-chinese-traditional = 中文（繁体）
notation-wxf = WXF
notation-iccs = ICCS

panel-headers = 对局信息
header-event = 赛事
header-date = 日期
header-site = 地点
header-red = 红方
header-black = 黑方
header-result = 结果
header-opening = 开局

result-red-wins = 红胜
result-black-wins = 黑胜
result-draw = 和棋
result-unknown = 未完

game-over = 对局结束：{ $reason }，{ $winner }。
end-checkmate = 将死
end-stalemate = 困毙
end-move-limit = 60回合自然限着
end-perpetual-check = 长将判负
end-perpetual-chase = 长捉判负
end-perpetual-mate-threat = 长杀判负
end-check-and-mate-threat = 一将一杀判负
end-check-and-chase = 一将一捉判负
end-mate-threat-and-chase = 一杀一捉判负
end-check-mate-threat-and-chase = 将、杀、捉交替判负
end-repetition-draw = 三次重复不变作和

illegal-move = 不能这样走：{ $reason }。
illegal-no-piece = 那里没有棋子
illegal-not-your-piece = 那是对方的棋子
illegal-own-piece-on-target = 目标位置有己方棋子
illegal-wrong-shape = 这个棋子不能这样走
illegal-leaves-palace = 将帅和士不能离开九宫
illegal-crosses-river = 象不能过河
illegal-elephant-eye-blocked = 塞象眼
illegal-horse-leg-blocked = 蹩马腿
illegal-path-blocked = 中间有棋子挡住
illegal-cannon-needs-screen = 炮吃子必须隔一个炮架
illegal-cannon-too-many-screens = 炮只能隔一个子吃子
illegal-pawn-sideways = 兵卒过河后才能横走
illegal-pawn-backwards = 兵卒不能后退
illegal-generals-face = 将帅不能照面
illegal-still-in-check = 你的将帅正被将军
illegal-exposes-general = 这样走会让己方将帅被将军

analysis-toggle = 分析
analysis-start = 开始分析（空格）
analysis-stop = 停止分析（空格）
analysis-lines = 线路数
analysis-waiting = 引擎思考中…
analysis-stats = 深度 { $depth } · 每秒 { $nps } 节点
engine-hide = 隐藏引擎（H）
engine-show = 显示引擎（H）
engine-toggle-hidden = 隐藏或显示引擎
engine-hidden-note = 引擎已隐藏：不显示评分、线路和箭头，直到再次显示。
engine-hash = 置换表大小
engine-threads = 搜索线程
engine-review-time = 复盘每步用时
score-mate = { $count } 步杀
review-start = 全局复盘
review-cancel = 取消
review-progress = 复盘中 { $done } / { $total }

games-title = 选择对局
games-search = 搜索（棋手、赛事、开局）
games-count = 共 { $count } 局
games-unreadable = 有 { $count } 局无法读取

dialog-unsaved-quit = 本局有未保存的修改。退出前要保存吗？
dialog-unsaved-replace = 本局有未保存的修改。放弃修改并打开另一局吗？
dialog-restore = 上次运行结束时有未保存的修改，已自动保存。要恢复吗？
dialog-save = 保存
dialog-discard = 放弃修改
dialog-cancel = 取消
dialog-restore-yes = 恢复
dialog-restore-no = 放弃

notice-copied-fen = 已复制局面 FEN。
notice-copied-pgn = 已复制棋谱 PGN。
notice-edit-failed = 这里不能这样修改。
notice-game-over = 对局已结束，这里不能再走棋。
notice-open-failed = 无法打开：{ $error }
notice-folder-empty = 该文件夹中没有棋谱文件。
notice-saved = 已保存 { $path }
notice-save-failed = 无法保存：{ $error }
notice-settings-not-saved = 无法保存设置：{ $error }
notice-settings-reset = 设置文件无法读取，已恢复默认设置（{ $error }）。
notice-autosave-failed = 自动保存失败：{ $error }
notice-restored = 已恢复未保存的内容。
notice-restore-failed = 无法读取自动保存的对局。
notice-review-done = 复盘完成：评分、标记和更好的着法已写入棋谱。

## openings
view-openings = 开局库
openings-title = 开局库
openings-close = 关闭开局库
openings-broken = 开局库无法读取：{ $error }
openings-unavailable = 开局库无法读取。
openings-search-label = 搜索
openings-search = 按名称搜索（中文或英文）
openings-which = 这是什么开局？
openings-no-match = 没有找到这个名称的开局。
openings-not-found = 这个局面不在开局库中。
header-recognized = 识别
