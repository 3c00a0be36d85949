# 楚河 — 繁體中文
language-name = 繁體中文

menu-file = 檔案
menu-edit = 編輯
menu-view = 檢視
menu-engine = 引擎
menu-language = 語言

file-new = 新對局
file-open = 開啟…
file-open-folder = 開啟資料夾…
file-previous = 資料夾中上一個檔案
file-next = 資料夾中下一個檔案
file-save = 儲存
file-save-as = 另存新檔…
file-copy-fen = 複製 FEN
file-copy-pgn = 複製 PGN
file-quit = 退出
file-recent = 最近開啟
file-recent-none = 沒有最近開啟的檔案
file-paste-hint = Ctrl+V 貼上 FEN 或 PGN；也可以把檔案拖到視窗上
file-untitled = 未命名
filter-games = 棋譜檔案

edit-undo = 復原
edit-redo = 重做
edit-promote = 變著上移
edit-main-line = 設為主線
edit-delete-from = 從此處刪除
edit-clear-marks = 清除箭頭和圓圈
edit-marks-hint = 右鍵拖動畫箭頭，右鍵單擊畫圓圈。Shift 紅色，Alt 藍色，Shift+Alt 黃色，不按為綠色
comment-label = 注釋
comment-hint = 本著注釋

view-flip = 翻轉棋盤
view-destinations = 顯示可走位置
view-board-only = 只顯示棋盤
view-coordinates = 座標
view-theme = 棋盤風格
view-notation = 記譜法
coordinates-chinese = 中文縱線編號
coordinates-iccs = ICCS（a–i，0–9）
theme-wood = 傳統木紋
theme-high-contrast = 高對比度
notation-chinese = 中文（簡體）
notation-chinese-traditional = 中文（繁體）
notation-wxf = WXF
notation-iccs = ICCS

panel-headers = 對局資訊
header-event = 賽事
header-date = 日期
header-site = 地點
header-red = 紅方
header-black = 黑方
header-result = 結果
header-opening = 開局

result-red-wins = 紅勝
result-black-wins = 黑勝
result-draw = 和棋
result-unknown = 未完

game-over = 對局結束：{ $reason }，{ $winner }。
end-checkmate = 將死
end-stalemate = 困斃
end-move-limit = 60回合自然限著
end-perpetual-check = 長將判負
end-perpetual-chase = 長捉判負
end-perpetual-mate-threat = 長殺判負
end-check-and-mate-threat = 一將一殺判負
end-check-and-chase = 一將一捉判負
end-mate-threat-and-chase = 一殺一捉判負
end-check-mate-threat-and-chase = 將、殺、捉交替判負
end-repetition-draw = 三次重複不變作和

illegal-move = 不能這樣走：{ $reason }。
illegal-no-piece = 那裡沒有棋子
illegal-not-your-piece = 那是對方的棋子
illegal-own-piece-on-target = 目標位置有己方棋子
illegal-wrong-shape = 這個棋子不能這樣走
illegal-leaves-palace = 將帥和士不能離開九宮
illegal-crosses-river = 象不能過河
illegal-elephant-eye-blocked = 塞象眼
illegal-horse-leg-blocked = 蹩馬腿
illegal-path-blocked = 中間有棋子擋住
illegal-cannon-needs-screen = 炮吃子必須隔一個炮架
illegal-cannon-too-many-screens = 炮只能隔一個子吃子
illegal-pawn-sideways = 兵卒過河後才能橫走
illegal-pawn-backwards = 兵卒不能後退
illegal-generals-face = 將帥不能照面
illegal-still-in-check = 你的將帥正被將軍
illegal-exposes-general = 這樣走會讓己方將帥被將軍

analysis-toggle = 分析
analysis-start = 開始分析（空格）
analysis-stop = 停止分析（空格）
analysis-lines = 線路數目
analysis-waiting = 引擎思考中…
analysis-stats = 深度 { $depth } · 每秒 { $nps } 節點
engine-hide = 隱藏引擎（H）
engine-show = 顯示引擎（H）
engine-toggle-hidden = 隱藏或顯示引擎
engine-hidden-note = 引擎已隱藏：不顯示評分、線路和箭頭，直到再次顯示。
engine-hash = 置換表大小
engine-threads = 搜尋執行緒
engine-review-time = 復盤每步用時
score-mate = { $count } 步殺
review-start = 全局復盤
review-cancel = 取消
review-progress = 復盤中 { $done } / { $total }

games-title = 選擇對局
games-search = 搜尋（棋手、賽事、開局）
games-count = 共 { $count } 局
games-unreadable = 有 { $count } 局無法讀取

dialog-unsaved-quit = 本局有未儲存的修改。退出前要儲存嗎？
dialog-unsaved-replace = 本局有未儲存的修改。放棄修改並開啟另一局嗎？
dialog-restore = 上次執行結束時有未儲存的修改，已自動儲存。要恢復嗎？
dialog-save = 儲存
dialog-discard = 放棄修改
dialog-cancel = 取消
dialog-restore-yes = 恢復
dialog-restore-no = 放棄

notice-copied-fen = 已複製局面 FEN。
notice-copied-pgn = 已複製棋譜 PGN。
notice-edit-failed = 這裡不能這樣修改。
notice-game-over = 對局已結束，這裡不能再走棋。
notice-open-failed = 無法開啟：{ $error }
notice-folder-empty = 該資料夾中沒有棋譜檔案。
notice-saved = 已儲存 { $path }
notice-save-failed = 無法儲存：{ $error }
notice-settings-not-saved = 無法儲存設定：{ $error }
notice-settings-reset = 設定檔案無法讀取，已恢復預設設定（{ $error }）。
notice-autosave-failed = 自動儲存失敗：{ $error }
notice-restored = 已恢復未儲存的內容。
notice-restore-failed = 無法讀取自動儲存的對局。
notice-review-done = 復盤完成：評分、標記和更好的著法已寫入棋譜。

## openings
view-openings = 開局庫
openings-title = 開局庫
openings-close = 關閉開局庫
openings-broken = 開局庫無法讀取：{ $error }
openings-unavailable = 開局庫無法讀取。
openings-search-label = 搜尋
openings-search = 按名稱搜尋（中文或英文）
openings-which = 這是什麼開局？
openings-no-match = 沒有找到這個名稱的開局。
openings-not-found = 這個局面不在開局庫中。
header-recognized = 識別
